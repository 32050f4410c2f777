/**
 * The batch ZIP: every output in STORE mode (yazl, ZIP64 when needed), built once into object
 * storage while streaming (flat memory for any size), then served from there with its sha256
 * as ETag. One process builds; concurrent requests wait for it.
 */
import { fail } from "@vektor/shared/errors";
import { isTerminalBatch } from "@vektor/shared/schemas/vocab";
import { and, asc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { batch, file, job } from "../../db/schema";
import type { ObjectStore } from "../../storage/types";
import type { BatchService } from "./service";
import { putZip } from "../../storage/zip";
import { batchStatus } from "./status";

const STALE_BUILD_MS = 30 * 60_000;
type BatchRow = typeof batch.$inferSelect;
export interface ZipInfo {
  key: string;
  size: number;
  sha256: string;
  filename: string;
}

export class BatchZips {
  constructor(
    private readonly db: Db,
    private readonly store: ObjectStore,
    private readonly batches: BatchService,
  ) {}

  async get(userId: string, batchId: string): Promise<ZipInfo> {
    let row = await this.batches.owned(userId, batchId);
    const counts = (await this.batches.counts([batchId])).get(batchId);
    if (!counts || !isTerminalBatch(batchStatus(counts, row.cancelledAt))) throw fail.invalidState("The ZIP is made once the batch has ended");
    if (counts.done === 0) throw fail.invalidState("The batch has no outputs yet");
    for (let waited = 0; ; waited += 250) {
      if (row.zipState === "ready") return info(row);
      if (await this.claimBuild(row.id)) return this.build(row);
      if (waited > STALE_BUILD_MS) throw fail.invalidState("The ZIP is still being built; try again later");
      await Bun.sleep(250);
      row = await this.batches.owned(userId, batchId);
    }
  }

  private async claimBuild(batchId: string): Promise<boolean> {
    const stale = new Date(Date.now() - STALE_BUILD_MS);
    const won = await this.db
      .update(batch)
      .set({ zipState: "building", zipStartedAt: new Date() })
      .where(and(eq(batch.id, batchId), or(isNull(batch.zipState), and(eq(batch.zipState, "building"), lt(batch.zipStartedAt, stale)))))
      .returning({ id: batch.id });
    return won.length > 0;
  }

  private async build(row: BatchRow): Promise<ZipInfo> {
    try {
      const outputs = await this.outputs(row.id);
      if (outputs.length === 0) throw fail.invalidState("The batch's outputs are gone (past their retention)");
      const key = `batches/${row.userId}/${row.id}.zip`;
      const stored = await putZip(this.store, key, outputs);
      const [done] = await this.db.update(batch).set({ zipState: "ready", zipKey: key, zipSize: stored.size, zipSha256: stored.sha256 }).where(eq(batch.id, row.id)).returning();
      return info(done);
    } catch (err) {
      await this.db.update(batch).set({ zipState: null }).where(eq(batch.id, row.id));
      throw err;
    }
  }

  /** Output files of the succeeded items, in item order. */
  private async outputs(batchId: string) {
    const items = await this.db
      .select({ outputs: job.outputFileIds })
      .from(job)
      .where(and(eq(job.batchId, batchId), eq(job.status, "succeeded")))
      .orderBy(asc(job.position));
    const ids = items.flatMap((i) => i.outputs);
    const rows = ids.length ? await this.db.select().from(file).where(inArray(file.id, ids)) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }
}

function info(row: BatchRow): ZipInfo {
  const filename = `${row.name.replace(/[^\w.-]+/g, "_").slice(0, 100) || row.id}.zip`;
  return { key: row.zipKey!, size: row.zipSize!, sha256: row.zipSha256!, filename };
}
