/** workflow list | run <id> <files...> [--wait] | runs | approve <runId>; approvals. */
import { isTerminalRun, RUN_STATUSES } from "@vektor/shared/schemas/vocab";
import { APPROVAL_FILTERS, type ApprovalFilter, type ApprovalItem, type Run, type RunDetail, type RunEvent, type RunStatus } from "@vektor/shared/schemas/workflow";
import { Command } from "commander";
import { context, FailedWork, UsageError, type Context, type GlobalOptions } from "../context";
import { fileIdsOf } from "../inputs";
import { withInterrupt } from "../interrupt";
import { limitOf } from "./jobs";

function runLines(d: RunDetail): string[] {
  const r = d.run;
  const lines = [`${r.runId}: ${r.status}${r.error ? ` (${r.error.code}: ${r.error.message})` : ""}`];
  if (r.outputFileIds.length) lines.push(`outputs: ${r.outputFileIds.join(" ")}`);
  for (const a of d.approvals.filter((x) => x.status === "pending")) lines.push(`waiting for approval at ${a.nodeId}: vektor workflow approve ${r.runId}`);
  return lines;
}

const runLine = (r: Run) => `${r.runId}  ${r.workflowName ?? r.workflowId}  ${r.status}  ${r.createdAt}${r.error ? `  ${r.error.code}` : ""}`;
const approvalLine = (a: ApprovalItem) => `${a.runId}  ${a.workflowName}  ${a.nodeTitle} (${a.nodeId})  ${a.status}  expires ${a.expiresAt}  ${a.files.length} file${a.files.length === 1 ? "" : "s"}`;

/** One progress line per change: a step's title and status, or the run's status. */
function eventLine(e: RunEvent, titles: Map<string, string>): string {
  if (e.event === "run") return `run ${e.data.runId}: ${e.data.status}`;
  const s = e.data;
  return `step ${titles.get(s.type) ?? s.type} (${s.nodeId}): ${s.status}${s.error ? ` (${s.error.code}: ${s.error.message})` : ""}`;
}

/**
 * Prints the run's step changes as they happen (stderr) until it ends or waits for an approval,
 * or `timeoutMs` passes; an interrupt (Ctrl-C) ends the command.
 */
async function followRun(ctx: Context, runId: string, timeoutMs: number): Promise<void> {
  const titles = new Map((await ctx.client.workflows.catalog()).map((n) => [n.type, n.title]));
  await withInterrupt(async (interrupt) => {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeoutMs);
    interrupt.addEventListener("abort", () => ctl.abort(interrupt.reason), { once: true });
    try {
      for await (const e of ctx.client.workflows.runEvents(runId, { signal: ctl.signal })) {
        // Steps not started yet say nothing new.
        if (e.event === "step" && e.data.status === "pending") continue;
        ctx.note(eventLine(e, titles));
        if (e.event === "run" && e.data.status === "waiting_approval") return;
      }
    } catch (err) {
      // Past --timeout the run's state so far is the answer, as without events.
      if (interrupt.aborted || !ctl.signal.aborted) throw err;
    } finally {
      clearTimeout(timer);
    }
  });
}

function statusOf<T extends string>(raw: string | undefined, values: readonly T[], option: string): T | undefined {
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) throw new UsageError(`${option} must be one of ${values.join(", ")}: ${raw}`);
  return raw as T;
}

export function workflowCommands(program: Command): void {
  const wf = program.command("workflow").description("workflows: list, run, runs, approve");
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
    .option("--wait", "follow the run's steps live until it ends (or waits for an approval)")
    .option("--timeout <seconds>", "with --wait: stop waiting after this long", "3600")
    .action(async (id: string, files: string[], _o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { wait?: boolean; timeout: string }>();
      const timeout = Number(o.timeout);
      if (!(timeout > 0)) throw new UsageError(`--timeout must be a number of seconds, got "${o.timeout}"`);
      const ctx = await context(o);
      const started = await withInterrupt(async (signal) => ctx.client.workflows.run(id, await fileIdsOf(ctx, files, signal)));
      if (!o.wait) return ctx.print(started, () => `${started.runId} started (${started.credits} credits)`);
      ctx.note(`${started.runId} started (${started.credits} credits)`);
      await followRun(ctx, started.runId, timeout * 1000);
      const d = await ctx.client.workflows.runDetail(started.runId);
      ctx.print(d, () => runLines(d));
      if (d.run.status === "failed" || d.run.status === "cancelled") throw new FailedWork(d.run.error?.code ?? "RUN_FAILED", d.run.error?.message ?? `the run ${d.run.status}`);
      if (!isTerminalRun(d.run.status) && d.run.status !== "waiting_approval") throw new FailedWork("TIMEOUT", `the run is still ${d.run.status} after ${o.timeout} s`);
    });
  wf.command("runs")
    .description("your runs of every workflow, newest first")
    .option("--status <status>", `only runs with this status (${RUN_STATUSES.join(", ")})`)
    .option("--workflow <id>", "only this workflow's runs")
    .option("--limit <n>", "how many (1..200)", "50")
    .option("--cursor <cursor>", "the page after this one (the nextCursor a previous page printed)")
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { status?: string; workflow?: string; limit: string; cursor?: string }>();
      const q = { status: statusOf<RunStatus>(o.status, RUN_STATUSES, "--status"), workflowId: o.workflow, limit: limitOf(o.limit), cursor: o.cursor };
      const ctx = await context(o);
      const page = await ctx.client.workflows.runs.list(q);
      ctx.print(page, () => (page.items.length ? page.items.map(runLine) : "no runs"));
      if (page.nextCursor) ctx.note(`more: vektor workflow runs --cursor ${page.nextCursor}`);
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
  program
    .command("approvals")
    .description("approvals waiting for you (--status decided or all for the others), newest first")
    .option("--status <status>", `pending (default), decided or all`)
    .option("--limit <n>", "how many (1..200)", "50")
    .option("--cursor <cursor>", "the page after this one (the nextCursor a previous page printed)")
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions & { status?: string; limit: string; cursor?: string }>();
      const q = { status: statusOf<ApprovalFilter>(o.status, APPROVAL_FILTERS, "--status"), limit: limitOf(o.limit), cursor: o.cursor };
      const ctx = await context(o);
      const page = await ctx.client.workflows.approvals.list(q);
      ctx.print(page, () => (page.items.length ? page.items.map(approvalLine) : "no approvals"));
      if (page.nextCursor) ctx.note(`more: vektor approvals --cursor ${page.nextCursor}`);
    });
}
