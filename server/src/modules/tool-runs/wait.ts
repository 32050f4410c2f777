/**
 * How POST /api/tools/{slug} waits for its job's end. A job this process runs is handed over by
 * its executor the moment its outcome commits (queue/ends.ts): the answer is built from that row
 * and its outputs, no read of the job table. A job another process runs (ROLE=api, or several
 * workers on one PostgreSQL) is polled, as before, from 25 ms doubling to 250 ms.
 */
import { isTerminalJob } from "@vektor/shared/schemas/vocab";
import type { Ended, JobEnds } from "../../queue/ends";
import type { ToolRunService } from "./service";
import { jobView, type JobView } from "./view";

const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 250;

/**
 * Waits until the job ends or `timeoutMs` passes; answers its latest state either way. `fresh`: the
 * request just queued it, so it cannot have ended yet and the first read waits for the first poll.
 */
export async function waitForJob(jobs: Pick<ToolRunService, "get">, ends: JobEnds, userId: string, jobId: string, timeoutMs: number, fresh: boolean): Promise<JobView> {
  const deadline = Date.now() + timeoutMs;
  const local = ends.wait(jobId);
  try {
    let delay = fresh ? FIRST_POLL_MS : 0;
    for (;;) {
      const end = await within(local.end, Math.min(delay, deadline - Date.now()));
      if (end && end.row.userId === userId) return jobView(end.row, end.outputs);
      const view = await jobs.get(userId, jobId);
      if (isTerminalJob(view.status) || Date.now() >= deadline) return view;
      delay = Math.min(Math.max(delay * 2, FIRST_POLL_MS), MAX_POLL_MS);
    }
  } finally {
    local.cancel();
  }
}

/** `end` if it comes within `ms`, else null. */
async function within(end: Promise<Ended>, ms: number): Promise<Ended | null> {
  if (ms <= 0) return Promise.race([end, Promise.resolve(null)]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([end, late]);
  } finally {
    clearTimeout(timer);
  }
}
