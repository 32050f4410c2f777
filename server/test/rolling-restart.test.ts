/**
 * Graceful shutdown: a rolling restart during a batch. The process running it gets SIGTERM while
 * items run and a replacement starts on the same data (on PostgreSQL a second process serves the
 * same database throughout and takes what the first hands back; PGlite has one owner, so there
 * the replacement starts once the first is gone). Every item succeeds, each run counted once and
 * charged once, the stopped process exits 0 well within its grace period, and a client's event
 * stream is told to reconnect. Once with a grace long enough for the running tools to finish,
 * once with none, so they are handed back to the queue.
 */
import { VektorClient } from "@vektor/shared/client";
import { expect, test } from "bun:test";
import { killableServer, PASSWORD, waitFor } from "./harness";
import { makePdf } from "./fixtures";

const ITEMS = 24;

type Detail = { batch: { status: string; total: number; done: number; failed: number; credits: number }; files: { status: string; attempts: number; outFileIds: string[] }[] };

async function rollingRestart(name: string, graceMs: number) {
  const server = killableServer(name, { ADMIN_EMAILS: `${name}@example.test`, SHUTDOWN_GRACE_MS: String(graceMs) });
  try {
    await server.start();
    // PostgreSQL: a second process on the same database, serving (and claiming) throughout.
    const other = process.env.TEST_DATABASE_URL ? await server.another() : null;
    const c = new VektorClient({ baseUrl: server.base });
    await c.auth.signUp({ name, email: `${name}@example.test`, password: PASSWORD });
    await c.admin.setConfig("batch_configs", { "batch.max_files_free": ITEMS });
    const before = (await c.account()).credits;
    const ids: string[] = [];
    for (let i = 0; i < ITEMS; i++) ids.push((await c.files.upload(new Blob([await makePdf(2, `${name} ${i}`)]), { filename: `r${i}.pdf`, mime: "application/pdf" })).fileId);
    const created = await c.t.call<{ batchId: string; credits: number }>("POST", "/api/batch", { type: "pdf.render-png", fileIds: ids, params: { dpi: 120 } });
    const batchPath = `/api/batch/${created.batchId}`;

    // A client watching the batch on the process about to stop: its stream is read to the end.
    const stream = await c.t.fetchOk(`${batchPath}/events`, { headers: { accept: "text/event-stream" } });
    const streamed = new Response(stream.body).text();

    const running = await waitFor("an item running", () => c.t.call<Detail>("GET", batchPath), (d) => d.files.some((f) => f.status === "running"), 120_000);
    expect(running.batch.done).toBeLessThan(ITEMS);
    const stopAsked = Date.now();
    expect(await server.terminate()).toBe(0);
    // Generous: only a process that waited past its grace (or hung) comes near this.
    expect(Date.now() - stopAsked).toBeLessThan(graceMs + 30_000);
    expect(await streamed).toEndWith("event: reconnect\ndata: {}\n\n");

    await server.start();
    const d = await waitFor("the batch to end", () => c.t.call<Detail>("GET", batchPath), (x) => x.batch.status === "completed" || x.batch.status === "failed", 300_000, 200);
    expect(d.batch).toMatchObject({ status: "completed", total: ITEMS, done: ITEMS, failed: 0, credits: created.credits });
    for (const item of d.files) {
      expect(item.status).toBe("succeeded");
      // One counted attempt: a job handed back is not counted, and none was taken over after a lease ran out.
      expect(item.attempts).toBe(1);
      expect(item.outFileIds).toHaveLength(2);
    }
    expect(new Set(d.files.flatMap((f) => f.outFileIds)).size).toBe(ITEMS * 2);
    expect((await c.credits()).filter((e) => e.ref === created.batchId).map((e) => e.amount)).toEqual([-created.credits]);
    expect((await c.account()).credits).toBe(before - created.credits);
    if (other) expect(await other.terminate()).toBe(0);
  } finally {
    await server.close();
  }
}

test("SIGTERM mid-batch with a grace period: running tools finish, the rest is done by the replacement, charged once", async () => {
  await rollingRestart("rolling-grace", 60_000);
}, 600_000);

test("SIGTERM mid-batch with no grace: running tools are handed back to the queue, nothing lost, charged once", async () => {
  await rollingRestart("rolling-handback", 0);
}, 600_000);
