/** workflow list | run <id> <files...> [--wait] | approve <runId>. */
import { TERMINAL_RUN_STATUSES } from "@vektor/shared/schemas/vocab";
import type { RunDetail } from "@vektor/shared/schemas/workflow";
import { Command } from "commander";
import { context, FailedWork, UsageError, type GlobalOptions } from "../context";
import { fileIdsOf } from "../inputs";
import { withInterrupt } from "../interrupt";

function runLines(d: RunDetail): string[] {
  const r = d.run;
  const lines = [`${r.runId}: ${r.status}${r.error ? ` (${r.error.code}: ${r.error.message})` : ""}`];
  if (r.outputFileIds.length) lines.push(`outputs: ${r.outputFileIds.join(" ")}`);
  for (const a of d.approvals.filter((x) => x.status === "pending")) lines.push(`waiting for approval at ${a.nodeId}: vektor workflow approve ${r.runId}`);
  return lines;
}

export function workflowCommands(program: Command): void {
  const wf = program.command("workflow").description("workflows: list, run, approve");
  wf.command("list")
    .description("your workflows")
    .option("--limit <n>", "how many (1..200)", "50")
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { limit: string }>();
      const ctx = await context(o);
      const page = await ctx.client.workflows.list({ limit: Number(o.limit) });
      ctx.print(page.items, () => (page.items.length ? page.items.map((w) => `${w.id}  ${w.name}  updated ${w.updatedAt}`) : "no workflows"));
    });
  wf.command("run <id> [files...]")
    .description("start a run on files (paths to upload, or file ids)")
    .option("--wait", "wait until the run ends (or waits for an approval)")
    .option("--timeout <seconds>", "with --wait: stop waiting after this long", "3600")
    .action(async (id: string, files: string[], _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { wait?: boolean; timeout: string }>();
      const timeout = Number(o.timeout);
      if (!(timeout > 0)) throw new UsageError(`--timeout must be a number of seconds, got "${o.timeout}"`);
      const ctx = await context(o);
      const started = await withInterrupt(async (signal) => ctx.client.workflows.run(id, await fileIdsOf(ctx, files, signal)));
      if (!o.wait) return ctx.print(started, () => `${started.runId} started (${started.credits} credits)`);
      const d = await ctx.client.workflows.waitFor(started.runId, { until: [...TERMINAL_RUN_STATUSES, "waiting_approval"], timeoutMs: timeout * 1000 });
      ctx.print(d, () => runLines(d));
      if (d.run.status === "failed" || d.run.status === "cancelled") throw new FailedWork(d.run.error?.code ?? "RUN_FAILED", d.run.error?.message ?? `the run ${d.run.status}`);
    });
  wf.command("approve <runId>")
    .description("approve (or --reject) a run waiting at an approval step")
    .option("--reject", "reject instead: the run fails with APPROVAL_REJECTED")
    .option("--note <text>", "a note kept with the decision")
    .option("--node <nodeId>", "which approval, when the run waits at several")
    .action(async (runId: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { reject?: boolean; note?: string; node?: string }>();
      const ctx = await context(o);
      const a = await ctx.client.workflows.approve(runId, { decision: o.reject ? "rejected" : "approved", note: o.note, nodeId: o.node });
      ctx.print(a, () => `${runId}: ${a.decision} at ${a.nodeId}`);
    });
}
