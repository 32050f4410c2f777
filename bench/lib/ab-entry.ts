/**
 * A/B entry for the batch benchmark: applies the proposed server changes named in BENCH_AB
 * (comma-separated) as patches, then starts the unchanged server/src/main.ts. Use it with
 * BENCH_SERVER_ENTRY=bench/lib/ab-entry.ts to measure a proposal before anyone edits the server.
 *
 *   claim     the queue claim takes the oldest queued row by an ordered index scan, with the
 *             per-user "running" counts computed once per claim (not once per queued row), and
 *             returns the row (no second SELECT); expired leases are looked at only when
 *             nothing is queued
 *   progress  no progress UPDATE at 100% (execute() reports 1.0 just before the success UPDATE,
 *             which sets progress = 100 anyway)
 *   crc       the batch ZIP's CRC-32 computed natively (node:zlib crc32) instead of in
 *             JavaScript (buffer-crc32, which yazl uses)
 */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { sql } from "../../server/node_modules/drizzle-orm";
import { job } from "../../server/src/db/schema";
import { WorkerPool } from "../../server/src/jobs/pool";
import { JobRunner } from "../../server/src/jobs/runner";

const wanted = new Set((process.env.BENCH_AB ?? "").split(",").map((s) => s.trim()).filter(Boolean));
const known = ["claim", "progress", "crc"];
for (const w of wanted) if (!known.includes(w)) throw new Error(`BENCH_AB: unknown patch "${w}" (known: ${known.join(", ")})`);

if (wanted.has("claim")) {
  type Limits = { perUser: number; global: number };
  type RunnerInternals = { db: any; opts: { leaseMs: number }; limits: () => Promise<Limits> };
  const claimWhere = (where: ReturnType<typeof sql>, perUser: number, global: number) => sql`
    select c.id from job c
    where ${where}
      and c.user_id not in (select r.user_id from job r where r.status = 'running' and r.lease_until >= now() group by r.user_id having count(*) >= ${perUser})
      and (${global} = 0 or (select count(*) from job g where g.status = 'running' and g.lease_until >= now()) < ${global})
    order by c.created_at
    for update of c skip locked
    limit 1`;
  JobRunner.prototype.claim = async function (this: JobRunner) {
    const self = this as unknown as RunnerInternals;
    const { perUser, global } = await self.limits();
    const leaseSeconds = self.opts.leaseMs / 1000;
    for (const where of [sql`c.status = 'queued'`, sql`c.status = 'running' and c.lease_until < now()`]) {
      const rows = await self.db
        .update(job)
        .set({ status: "running", attempts: sql`${job.attempts} + 1`, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, startedAt: sql`coalesce(${job.startedAt}, now())` })
        .where(sql`${job.id} = (${claimWhere(where, perUser, global)})`)
        .returning();
      if (rows.length) return rows[0];
    }
    return null;
  };
}

if (wanted.has("progress")) {
  const run = WorkerPool.prototype.run;
  WorkerPool.prototype.run = function (task) {
    const report = task.onProgress;
    return run.call(this, { ...task, onProgress: report && ((fraction: number) => (fraction < 1 ? report(fraction) : undefined)) });
  };
}

if (wanted.has("crc")) {
  // the very module instance yazl requires
  const fromYazl = createRequire(realpathSync(join(import.meta.dir, "..", "..", "server", "node_modules", "yazl", "index.js")));
  const crc32 = fromYazl("buffer-crc32") as { unsigned: (buf: Uint8Array, previous?: number) => number };
  crc32.unsigned = (buf, previous) => zlib.crc32(buf, previous ?? 0);
}

if (wanted.size) console.error(`[ab-entry] patches: ${[...wanted].join(", ")}`);
await import("../../server/src/main.ts");
