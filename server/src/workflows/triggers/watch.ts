/**
 * Watch triggers: in the transaction that makes an upload UPLOADED (confirm, URL import), one
 * `watch.fire` job per watch trigger of the owner's workflows whose prefix/suffix the file name
 * matches (dedupe key per trigger and file), so the upload's answer waits for no run. The job
 * starts the run with that file exactly once (start.ts). A file that is the output of a job or
 * run never fires a watch (no loops), and `workflow.watch_enabled` off starts nothing.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { file, workflow, workflowTrigger } from "../../db/schema";
import type { ControlHandler } from "../../queue/registry";
import { enqueue } from "../../queue/enqueue";
import { matchesPrefixSuffix } from "../files";
import { fireOnce, loadTrigger, type TriggerJobDeps } from "./start";

type WatchConfig = { prefix?: string; suffix?: string };

/** Queues the watch fires of a file that just became UPLOADED (call it in that transaction). */
export async function queueWatchFires(tx: Tx, f: { id: string; userId: string; filename: string; jobId: string | null }): Promise<number> {
  if (f.jobId) return 0;
  const triggers = await tx
    .select({ id: workflowTrigger.id, config: workflowTrigger.config })
    .from(workflowTrigger)
    .innerJoin(workflow, eq(workflow.id, workflowTrigger.workflowId))
    .where(and(eq(workflowTrigger.type, "watch"), eq(workflow.userId, f.userId)));
  let queued = 0;
  for (const t of triggers) {
    const c = t.config as WatchConfig;
    if (!matchesPrefixSuffix(f.filename, c.prefix, c.suffix)) continue;
    if (await enqueue(tx, { kind: "watch.fire", data: { triggerId: t.id, fileId: f.id }, userId: f.userId, dedupeKey: `watch.fire:${t.id}:${f.id}` })) queued++;
  }
  return queued;
}

export function watchFireHandler(d: TriggerJobDeps): ControlHandler<"watch.fire"> {
  return {
    kind: "watch.fire",
    retry: { attempts: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 },
    async run(job) {
      const t = await loadTrigger(d.db, job.data.triggerId);
      if (!t || t.type !== "watch") return;
      if (!(await d.config.get("workflow.watch_enabled"))) {
        d.log.info({ triggerId: t.id, fileId: job.data.fileId }, "watch fire skipped: workflow.watch_enabled is off");
        return;
      }
      const [f] = await d.db
        .select({ filename: file.filename, status: file.status, jobId: file.jobId })
        .from(file)
        .where(and(eq(file.id, job.data.fileId), eq(file.userId, t.userId)));
      const c = t.config as WatchConfig;
      // Gone, an output, or the trigger's prefix/suffix changed since: nothing to start.
      if (!f || f.status !== "UPLOADED" || f.jobId || !matchesPrefixSuffix(f.filename, c.prefix, c.suffix)) return;
      await fireOnce(d, t, "watch", [job.data.fileId], { fileId: job.data.fileId });
    },
  };
}
