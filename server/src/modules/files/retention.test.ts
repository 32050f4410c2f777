/** The retention sweep as a self-rescheduling, deduplicated queue job, on the real database. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { JobStatus } from "@vektor/shared/schemas/vocab";
import { and, eq, sql } from "drizzle-orm";
import { resultRows } from "../../db/client";
import { file, job } from "../../db/schema";
import { readEnv } from "../../env";
import { UrlSigner } from "../../lib/signer";
import { ConfigService } from "../../config/service";
import { FileService } from "./service";
import { ToolRunService } from "../tool-runs/service";
import { RETENTION_EVERY_MS, retentionHandler, scheduleRetention } from "./retention";
import { clearQueue, handlerSet, insertUser, jobRow, makeRunner, openTestQueue, SETUP_TIMEOUT, stopRunners, uploadPdf, waitForStatus, type TestQueue } from "../../queue/queue.testkit";

let q: TestQueue;
let files: FileService;
beforeAll(async () => {
  q = await openTestQueue();
  const config = new ConfigService(q.db);
  files = new FileService({ database: { db: q.db }, store: q.store, config, signer: new UrlSigner("retention-test"), env: readEnv({ DATA_DIR: q.dir }), jobs: new ToolRunService(q.db, config) });
}, SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(() => clearQueue(q.db));
afterEach(stopRunners);

const sweeps = (status: JobStatus) => q.db.select().from(job).where(and(eq(job.kind, "retention.sweep"), eq(job.status, status)));

describe("retention sweep", () => {
  test("two processes scheduling it at once queue one sweep, ten minutes out", async () => {
    const before = Date.now();
    const ids = await Promise.all([scheduleRetention(q.db), scheduleRetention(q.db)]);
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await scheduleRetention(q.db)).toBeNull();
    const queued = await sweeps("queued");
    expect(queued).toHaveLength(1);
    expect(queued[0].runAfter.getTime()).toBeGreaterThanOrEqual(before + RETENTION_EVERY_MS);
  });

  test("a sweep deletes expired files and, in the transaction that records it, queues the next one once", async () => {
    const userId = await insertUser(q.db);
    const old = await uploadPdf(q, userId, 1);
    await q.db.update(file).set({ createdAt: new Date(Date.now() - 30 * 86_400_000) }).where(eq(file.id, old));
    const fresh = await uploadPdf(q, userId, 1);
    // Jobs came and went: enough dead rows in job for the upkeep to vacuum it.
    await q.db.execute(sql`insert into job (id, type, status, params, input_file_ids) select 'churn' || g, 'x', 'succeeded', '{}', '[]' from generate_series(1, 200) g`);
    await q.db.execute(sql`delete from job where id like 'churn%'`);
    const first = (await scheduleRetention(q.db, 0))!;
    makeRunner(q, handlerSet(retentionHandler(files, q, 30))).start();
    const done = await waitForStatus(q.db, first, "succeeded");
    const [next] = await sweeps("queued");
    expect(next.id).not.toBe(first);
    expect(next.runAfter.getTime()).toBeGreaterThanOrEqual(done.finishedAt!.getTime() + RETENTION_EVERY_MS);
    expect(await q.db.select({ id: file.id }).from(file)).toEqual([{ id: fresh }]);
    expect(await q.store.head(`u/${userId}/${old}`)).toBeNull();
    // PGlite has no autovacuum: the sweep vacuumed and analyzed the tables that changed enough (a Postgres server's autovacuum does that there).
    if (!process.env.TEST_DATABASE_URL) {
      const [stats] = resultRows<{ vacuumed: boolean; analyzed: boolean }>(await q.db.execute(sql`select last_vacuum is not null as vacuumed, last_analyze is not null as analyzed from pg_stat_user_tables where relname = 'job'`));
      expect(stats).toEqual({ vacuumed: true, analyzed: true });
    }
    // The chain holds one live sweep: another process starting now adds none.
    expect(await scheduleRetention(q.db)).toBeNull();
    expect(await sweeps("queued")).toHaveLength(1);
  });

  test("a sweep that failed for good still queues the next one, in the transaction that records the failure", async () => {
    const handler = retentionHandler(files, q, 30);
    const first = (await scheduleRetention(q.db, 0))!;
    const claimed = (await makeRunner(q, handlerSet(handler)).claim("control"))!;
    expect(claimed.id).toBe(first);
    // What the runner's final failure does: the status and the hook commit together.
    await q.db.transaction(async (tx) => {
      await tx.update(job).set({ status: "failed", errorCode: "HANDLER_FAILED" }).where(eq(job.id, first));
      await handler.onFailed!(tx, { id: first, kind: "retention.sweep", data: {}, userId: null, attempts: claimed.attempts }, { code: "HANDLER_FAILED", message: "disk gone" });
    });
    expect((await jobRow(q.db, first)).status).toBe("failed");
    expect(await sweeps("queued")).toHaveLength(1);
    expect(await scheduleRetention(q.db)).toBeNull();
  });
});
