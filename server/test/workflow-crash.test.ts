/**
 * Crash safety of the workflow engine: 20 runs of a 5-step workflow with an approval, the
 * server killed with SIGKILL at random moments while they run and restarted on the same data.
 * Every run finishes once, every step's outputs are recorded once (no second copy of any file),
 * and the ledger holds exactly one charge per run.
 */
import { VektorClient } from "@vektor/shared/client";
import type { Run, RunDetail } from "@vektor/shared/schemas/workflow";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import { afterAll, expect, test } from "bun:test";
import { killableServer, PASSWORD } from "./harness";
import { makePdf } from "./fixtures";

const server = killableServer("wf-crash");
afterAll(() => server.close());

const RUNS = 20;
const KILLS = 4;
const GRAPH = JSON.stringify({
  nodes: ["source.upload", "op.pdf.rotate", "logic.approval", "op.pdf.compress", "sink.zip"].map((type, i) => ({ id: `n${i}`, type, data: { type } })),
  edges: [0, 1, 2, 3].map((i) => ({ source: `n${i}`, target: `n${i + 1}` })),
});

/**
 * Approves every run waiting for it, from one list call a sweep (a detail call per run would
 * soon meet the per-minute rate limit on a fast server); a call cut short by a kill is simply
 * tried again later. Answers the runs as listed.
 */
async function approveWaiting(c: VektorClient, workflowId: string): Promise<Run[]> {
  const page = await c.workflows.runs(workflowId, { limit: 100 }).catch(() => null);
  for (const r of page?.items ?? []) {
    if (r.status === "waiting_approval") await c.workflows.approve(r.runId, { decision: "approved" }).catch(() => {});
  }
  return page?.items ?? [];
}

test("SIGKILL at random moments during 20 workflow runs: each finishes once, outputs once, exact ledger", async () => {
  await server.start();
  const c = new VektorClient({ baseUrl: server.base });
  await c.auth.signUp({ name: "wf-crash", email: "wf-crash@example.test", password: PASSWORD });
  const w = await c.workflows.create({ name: "crash", graphJson: GRAPH });
  const runIds: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const f = await c.files.upload(new Blob([await makePdf(2, `run ${i}`)]), { filename: `r${i}.pdf`, mime: "application/pdf" });
    runIds.push((await c.workflows.run(w.id, [f.fileId])).runId);
  }

  for (let k = 0; k < KILLS; k++) {
    const until = Date.now() + 200 + Math.random() * 1500;
    while (Date.now() < until) {
      await approveWaiting(c, w.id);
      await Bun.sleep(20);
    }
    await server.kill();
    await server.start();
  }

  for (const deadline = Date.now() + 240_000; Date.now() < deadline; ) {
    const runs = await approveWaiting(c, w.id);
    if (runs.length === RUNS && runs.every((r) => isTerminalRun(r.status))) break;
    await Bun.sleep(100);
  }
  const details: RunDetail[] = [];
  for (const id of runIds) details.push(await c.workflows.runDetail(id));
  // A run that did not succeed says why, with its steps, so a failure here can be read from the log.
  const unfinished = details.filter((d) => d.run.status !== "succeeded").map((d) => ({ run: d.run, steps: d.steps.map((s) => [s.nodeId, s.status, s.attempts, s.error]) }));
  expect(unfinished).toEqual([]);
  expect(details.length).toBe(RUNS);

  const stepOutputs: string[] = [];
  for (const d of details) {
    expect(d.steps.map((s) => s.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded", "succeeded"]);
    expect(d.approvals.map((a) => a.status)).toEqual(["approved"]);
    for (const s of d.steps.filter((x) => x.type !== "source.upload" && x.type !== "logic.approval")) {
      expect({ node: s.nodeId, outputs: s.outputFileIds.length }).toEqual({ node: s.nodeId, outputs: 1 });
      stepOutputs.push(...s.outputFileIds);
    }
    expect(d.run.outputFileIds).toEqual(d.steps[4].outputFileIds);
  }
  expect(new Set(stepOutputs).size).toBe(stepOutputs.length);
  // Every file the runs wrote is some step's output: nothing was written twice.
  const written: string[] = [];
  for (let cursor: string | undefined; ; ) {
    const page = await c.files.list({ limit: 200, cursor });
    written.push(...page.items.filter((f) => f.jobId).map((f) => f.fileId));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  expect(written.sort()).toEqual(stepOutputs.sort());
  const ledger = await c.credits(500);
  for (const id of runIds) expect(ledger.filter((e) => e.ref === id).map((e) => e.amount)).toEqual([-3]);
  expect((await c.account()).credits).toBe(100 - 3 * RUNS);
}, 600_000);
