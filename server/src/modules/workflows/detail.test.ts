/**
 * A run's detail describes one moment, though its reads are four statements: a run that ends
 * between them (its completion webhook then recorded) is read again, not answered running with a
 * delivery that only a finished run has.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ConfigService } from "../../config/service";
import { delivery, workflow, workflowRun } from "../../db/schema";
import { newId } from "../../lib/ids";
import { insertUser, openTestQueue, SETUP_TIMEOUT, type TestQueue } from "../../queue/queue.testkit";
import { Engine } from "../../workflows/engine";
import { NotifySecrets } from "../../workflows/notify/secret";
import { WorkflowService } from "./service";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());

async function runningRun(userId: string): Promise<string> {
  const workflowId = newId("wf");
  await q.db.insert(workflow).values({ id: workflowId, userId, name: "w", graphJson: "{}", versionId: newId("wv") });
  const id = newId("run");
  await q.db.insert(workflowRun).values({ id, workflowId, userId, versionId: "v", status: "running", trigger: "manual", plan: { nodes: [], edges: [] }, inputFileIds: [], credits: 0, perStepCredits: 0 });
  return id;
}

/** What the run's end commits (the run, its delivery), then what the webhook's attempt commits. */
async function endAndDeliver(runId: string): Promise<void> {
  await q.db.transaction(async (tx) => {
    await tx.update(workflowRun).set({ status: "succeeded", finishedAt: new Date() }).where(eq(workflowRun.id, runId));
    await tx.insert(delivery).values({ id: newId("dlv"), runId, channel: "webhook", target: "http://10.0.0.1/hook", runStatus: "succeeded", body: "{}", status: "pending" });
  });
  await q.db.update(delivery).set({ status: "blocked", finishedAt: new Date() }).where(eq(delivery.runId, runId));
}

test("a run that ends while its detail is read is answered as it ended, with its delivery", async () => {
  const userId = await insertUser(q.db);
  const runId = await runningRun(userId);
  const service = new WorkflowService(q.db, new ConfigService(q.db), new Engine(), await NotifySecrets.fromServerSecret("test secret of the detail"));
  // Between the run's read and the others' (the service's own prepared read, taken once).
  const reads = (service as unknown as { q: { runSteps: { execute: (v: { runId: string }) => Promise<unknown[]> } } }).q;
  const steps = reads.runSteps.execute.bind(reads.runSteps);
  let ended = false;
  reads.runSteps.execute = async (v) => {
    if (!ended) {
      ended = true;
      await endAndDeliver(runId);
    }
    return steps(v);
  };
  const detail = await service.runDetail(userId, runId);
  expect(ended).toBe(true);
  expect(detail.deliveries.map((d) => d.status)).toEqual(["blocked"]);
  expect(detail.run.status).toBe("succeeded");
});
