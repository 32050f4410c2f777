/**
 * The JavaScript on a tool call's HTTP path warms like PGlite's WebAssembly (warm-up.ts): Elysia's
 * handler, the caller's lookup, the body's checks, the job's hand-off and the answer are compiled
 * as they get hot, and until then a fresh server's calls pay for it (bench/tools measures its
 * first ~150). So after the database's warm-up, a server that runs tools itself makes `calls` real
 * tool calls to itself before it listens, as any client would:
 * - through `app.handle` (no socket), with the client library, as a made-up user with an API token;
 * - on a 1-page PDF it uploads through the API, with pdf.rotate, which also loads the PDF engine in
 *   a tool worker;
 * - then it deletes that user, whose rows take its files, jobs and token with them, and the objects
 *   of its files; the boot then replaces the idle tool workers with fresh ones (WorkerPool.recycleIdle),
 *   so the PDF engine the calls loaded (about 35 MB) is not kept by a server that may never run a
 *   PDF tool itself.
 * Measured on bench/tools' 1-page calls, alternated: fixed overhead p50 0.8 ms lower in 6 of 7
 * pairs (5.96 -> 5.16, 6.54 -> 5.56, 6.93 -> 5.72 ms, on a noisy machine). 200 calls take about
 * 2.5 s; about 10 MB more stays resident (the compiled code).
 * Its requests are its own (http/core.ts ownRequest): no rate limit counts them and no access line
 * logs them. A warm-up cut short by a crash leaves its user behind: the next start deletes it first
 * (its e-mail ends in WARM_UP_DOMAIN). A tool queue with work in it at start is never joined: the
 * calls would wait their turn behind real jobs.
 */
import { VektorClient } from "@vektor/shared/client";
import { like } from "drizzle-orm";
import type { App } from "../app";
import { user } from "../db/schema";
import { ownRequest } from "../http/core";
import { newId } from "../lib/ids";
import { AccountService } from "../modules/account/account-service";
import type { Services } from "../services";
import { WARM_UP_DOMAIN } from "./warm-up";

/** The warm-up stops here whatever is left of its calls: a slow machine starts later, not much later. */
const BUDGET_MS = 10_000;

type Deps = Pick<Services, "database" | "store" | "tokens" | "jobs" | "auth" | "log">;

/** Makes up to `calls` tool calls through `app` (see the module's comment). Answers how many succeeded. */
export async function warmUpRequests(app: App, s: Deps, calls: number): Promise<number> {
  await deleteWarmUpUsers(s);
  if (calls === 0 || (await s.jobs.depth()) > 0) return 0;
  const userId = newId("warmup");
  await s.database.db.insert(user).values({ id: userId, name: "warm-up", email: `${userId}@${WARM_UP_DOMAIN}` });
  try {
    const { token } = await s.tokens.create(userId, { name: "warm-up" });
    const own = (input: RequestInfo | URL, init?: RequestInit) => app.handle(ownRequest(new Request(input, init)));
    const client = new VektorClient({ baseUrl: `http://${WARM_UP_DOMAIN}`, token, fetch: own as typeof fetch });
    const { fileId } = await client.files.upload(new Blob([onePagePdf()]), { filename: "warm-up.pdf", mime: "application/pdf" });
    const deadline = performance.now() + BUDGET_MS;
    let succeeded = 0;
    for (let i = 0; i < calls && performance.now() < deadline; i++) {
      const job = await client.tools.run("pdf.rotate", [fileId], { params: { degrees: 90 } });
      if (job.status !== "succeeded") break;
      succeeded++;
    }
    return succeeded;
  } finally {
    await deleteWarmUpUsers(s);
  }
}

/** Deletes every made-up user as an account is deleted (AccountService.purge): its files' objects, then its rows. */
async function deleteWarmUpUsers(s: Deps): Promise<void> {
  const { db } = s.database;
  const accounts = new AccountService({ db, auth: s.auth, store: s.store, log: s.log });
  for (const u of await db.select({ id: user.id }).from(user).where(like(user.email, `%@${WARM_UP_DOMAIN}`))) await accounts.purge(u.id);
}

/**
 * A blank 1-page PDF, written out here: loading pdf-lib on this thread to make one kept about 10 MB
 * more resident for the life of the server.
 */
function onePagePdf(): string {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"];
  let pdf = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  return `${pdf}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}
