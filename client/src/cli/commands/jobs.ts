/** jobs: your tool jobs, newest first; cancel <jobId>: stop one that has not ended. */
import type { Job } from "@vektor/shared/schemas/job";
import type { Command } from "commander";
import { context, FailedWork, UsageError, type GlobalOptions } from "../context";
import { withInterrupt } from "../interrupt";

/** `--limit` as the server takes it (1..200); anything else is bad usage, caught before a request. */
export function limitOf(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 200) throw new UsageError(`--limit must be an integer from 1 to 200: ${raw}`);
  return n;
}

/** One line of a job: id, tool, status (with progress while it runs), when, and what it belongs to. */
function jobLine(j: Job): string {
  const status = j.status === "running" ? `running ${j.progress}%${j.cancelRequested ? " (stopping)" : ""}` : j.status;
  const owner = j.batchId ? `  batch ${j.batchId}` : j.runId ? `  run ${j.runId}` : "";
  return `${j.jobId}  ${j.type}  ${status}  ${j.createdAt}${owner}`;
}

export function jobCommands(program: Command): void {
  program
    .command("jobs")
    .description("your tool jobs, newest first (batch items and workflow steps' jobs included)")
    .option("--limit <n>", "how many (1..200)", "50")
    .option("--cursor <cursor>", "the page after this one (the nextCursor a previous page printed)")
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { limit: string; cursor?: string }>();
      const limit = limitOf(o.limit);
      const ctx = await context(o);
      const page = await ctx.client.jobs.list({ limit, cursor: o.cursor });
      ctx.print(page, () => (page.items.length ? page.items.map(jobLine) : "no jobs"));
      if (page.nextCursor) ctx.note(`more: vektor jobs --cursor ${page.nextCursor}`);
    });
  program
    .command("cancel <jobId>")
    .description("cancel a job: a queued one never runs, a running one stops within seconds (a batch item or a workflow step's job: cancel its batch or run)")
    .option("--wait", "wait until the job has ended and print its final state")
    .action(async (jobId: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { wait?: boolean }>();
      const ctx = await context(o);
      let job = await ctx.client.jobs.cancel(jobId);
      if (o.wait && job.status !== "cancelled") job = await withInterrupt((signal) => ctx.client.jobs.wait(job, { signal }));
      ctx.print(job, () => (job.status === "running" ? `${job.jobId}: running, stopping (vektor cancel ${job.jobId} --wait waits for it)` : `${job.jobId}: ${job.status}`));
      // Finished before the cancel reached its worker: the cancel did not take.
      if (job.status !== "cancelled" && job.status !== "running") throw new FailedWork("INVALID_STATE", `the job ended ${job.status} before the cancel reached it`);
    });
}
