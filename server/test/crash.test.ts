/**
 * Crash safety: a 40-item batch, the server process killed with SIGKILL half-way, restarted on
 * the same data. The batch completes with every item processed once, exact counters, and the
 * credits charged once.
 */
import { VektorClient } from "@vektor/shared/client";
import { afterAll, expect, test } from "bun:test";
import { killableServer, PASSWORD } from "./harness";
import { makePdf } from "./fixtures";

const server = killableServer("crash", { ADMIN_EMAILS: "crash@example.test" });
afterAll(() => server.close());

type Detail = { batch: { status: string; total: number; done: number; failed: number; credits: number }; files: { status: string; attempts: number; outFileIds: string[] }[] };

test("SIGKILL half-way through a batch: after a restart every item is processed once and credits are charged once", async () => {
  await server.start();
  const c = new VektorClient({ baseUrl: server.base });
  await c.auth.signUp({ name: "crash", email: "crash@example.test", password: PASSWORD });
  await c.admin.setConfig("batch_configs", { "batch.max_files_free": 40 });
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) ids.push((await c.files.upload(new Blob([await makePdf(2, `crash ${i}`)]), { filename: `c${i}.pdf`, mime: "application/pdf" })).fileId);
  const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.render-png", fileIds: ids, params: { dpi: 120 } });

  let done = 0;
  for (const deadline = Date.now() + 120_000; done < 12 && Date.now() < deadline; ) {
    done = (await c.t.call<Detail>("GET", `/api/batch/${batchId}`)).batch.done;
    await Bun.sleep(50);
  }
  await server.kill();
  expect(done).toBeGreaterThanOrEqual(12);
  expect(done).toBeLessThan(40);

  await server.start();
  let d!: Detail;
  for (let i = 0; i < 2400; i++) {
    d = await c.t.call<Detail>("GET", `/api/batch/${batchId}`);
    if (d.batch.status === "completed" || d.batch.status === "failed") break;
    await Bun.sleep(100);
  }
  expect(d.batch).toMatchObject({ status: "completed", total: 40, done: 40, failed: 0, credits: 41 });
  for (const item of d.files) {
    expect(item.status).toBe("succeeded");
    expect(item.outFileIds).toHaveLength(2); // two pages -> two PNGs, recorded once
  }
  // Every output file the API knows belongs to exactly one item: none recorded twice.
  const outputs = new Set(d.files.flatMap((f) => f.outFileIds));
  expect(outputs.size).toBe(80);
  const listed: { fileId: string; jobId?: string }[] = [];
  for (let cursor: string | undefined; ; ) {
    const page = await c.files.list({ limit: 200, cursor });
    listed.push(...page.items);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  expect(listed.filter((f) => f.jobId).map((f) => f.fileId).sort()).toEqual([...outputs].sort());
  expect((await c.credits()).filter((e) => e.ref === batchId).map((e) => e.amount)).toEqual([-41]);
  expect((await c.account()).credits).toBe(59);
}, 600_000); // 33 s here, 180 s beside two CPU hogs: only a hang should reach this
