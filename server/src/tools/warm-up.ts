/**
 * A fresh embedded database runs a tool call's statements slowly for its first few hundred calls.
 * JSC first interprets PGlite's Postgres (WebAssembly), then compiles each function once it has run
 * often enough: about 4-5 ms of compiling per call over the first 200 calls, on a thread that
 * competes with the tool workers for the CPU. The JavaScript around the statements warms the same
 * way. Measured through the API on a fresh server (bench/tools, three runs each, alternated), the
 * fixed cost of a 1-page call was 5.30-5.59 ms without a warm-up and 4.08-4.43 ms after 400 calls.
 *
 * So a PGlite server runs those statements before it listens (boot.ts): a tool call's job inserted
 * claimed, then its success recorded with an output, on a made-up user and input file. Each round
 * is one transaction, rolled back, so nothing is ever seen or kept:
 * - no row is visible to anyone;
 * - a rolled-back transaction sends no notification;
 * - its dead rows go with the next vacuum.
 * 400 calls take about 1.2 s here. A Postgres server runs compiled code, so it gets none.
 */
import type { Db } from "../db/client";
import { rolledBack } from "../db/rolled-back";
import { file, user } from "../db/schema";
import { newId } from "../lib/ids";
import { enqueueAdmitted } from "../queue/enqueue";
import { recordSuccess } from "./record-success";

/** The made-up users' e-mail domain, here and in warm-up-requests.ts (RFC 2606: never delivered to). */
export const WARM_UP_DOMAIN = "warm-up.invalid";

/** Calls per round: they share one transaction and its made-up rows (200 calls took 0.58 s so, 1.64 s one a round). */
const CALLS_PER_ROUND = 10;

/**
 * Runs `calls` tool calls' statements, each round rolled back (see the module's comment). Answers
 * how many of them recorded a success: those that went all the way through.
 */
export async function warmUpToolCalls(db: Db, calls: number): Promise<number> {
  let recorded = 0;
  for (let done = 0; done < calls; done += CALLS_PER_ROUND) recorded += await round(db, Math.min(CALLS_PER_ROUND, calls - done));
  return recorded;
}

async function round(db: Db, calls: number): Promise<number> {
  return rolledBack(db, async (t) => {
    const userId = newId("warmup");
    const fileId = newId("f");
    await t.insert(user).values({ id: userId, name: "warm-up", email: `${userId}@${WARM_UP_DOMAIN}` });
    await t.insert(file).values({ id: fileId, userId, filename: "in.pdf", mime: "application/pdf", size: 1, status: "UPLOADED", storageKey: `warm-up/${fileId}`, uploadedAt: new Date() });
    let recorded = 0;
    for (let i = 0; i < calls; i++) if (await call(t, userId, fileId)) recorded++;
    return recorded;
  });
}

/** One call's statements: its job inserted claimed (no limits), then its success recorded with one output. Whether that success was. */
async function call(t: Db, userId: string, fileId: string): Promise<boolean> {
  const tool = { slug: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [fileId] };
  const admitted = await enqueueAdmitted(t, { kind: "tool.run", userId, tool, origin: "api" }, 1 << 20, { perUser: 0, global: 0, leaseMs: 60_000 });
  // Queued instead (a tool job was waiting at boot): recording a success would match no running job.
  if (admitted?.row.status !== "running") return false;
  const id = newId("f");
  const ended = await recordSuccess(t, admitted.row, [
    { id, userId, filename: "out.pdf", mime: "application/pdf", size: 1, checksum: "0", status: "UPLOADED", format: "pdf", storageKey: `warm-up/${id}`, jobId: admitted.row.id, sourceFileId: fileId, uploadedAt: new Date() },
  ]);
  return ended !== null;
}
