/**
 * Watching and steering workflow runs in Chromium: a run page follows its run live (no reload)
 * to `succeeded`; an approval rejected on the page fails its step, which shows the code and what
 * to do, and `Retry failed steps` (free, on the run's version) asks again and completes the run;
 * Replay says its charge and opens the new run, Cancel says the refund; the approvals inbox
 * approves one run and rejects another, and says why when an approval was decided already or
 * timed out; the runs list filters by status, a workflow's editor lists its own runs; a
 * sub-workflow's steps are nested under their step; the e-mail link opens the run page after sign-in.
 * axe-core on the run page, the runs list and the inbox; screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { VektorClient } from "@vektor/shared/client";
import type { Browser, Page } from "playwright-core";
import { PASSWORD, startTestServer, waitFor, type TestServer } from "../server/test/harness";
import { seriousViolations } from "./support/axe";
import { shootAtTwoWidths, signIn } from "./support/app";
import { launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { requireWebBuild } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");

let srv: TestServer;
let browser: Browser;
let page: Page;
let api: VektorClient & { email: string };
let fileId = "";
let gateId = "";

/** in -> approval -> compress -> out: a run waits for a decision, then does real work. */
const approvalGraph = (timeoutSeconds?: number) =>
  JSON.stringify({
    nodes: [
      { id: "src", type: "source.upload", position: { x: 0, y: 0 }, data: { type: "source.upload" } },
      { id: "gate", type: "logic.approval", position: { x: 300, y: 0 }, data: { type: "logic.approval", params: timeoutSeconds ? { timeoutSeconds } : {} } },
      { id: "shrink", type: "op.pdf.compress", position: { x: 600, y: 0 }, data: { type: "op.pdf.compress" } },
      { id: "dl", type: "sink.download", position: { x: 900, y: 0 }, data: { type: "sink.download" } },
    ],
    edges: [
      { source: "src", target: "gate" },
      { source: "gate", target: "shrink" },
      { source: "shrink", target: "dl" },
    ],
  });

const shoot = (name: string) => shootAtTwoWidths(page, SHOTS, name);

async function expectNoSeriousViolations(): Promise<void> {
  const found = await seriousViolations(page);
  expect(found.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

const steps = () => page.getByRole("list", { name: "Steps", exact: true }).getByRole("listitem");
/** The Steps item of the step with this node id (its title may repeat; the id does not). */
const step = (nodeId: string) => steps().filter({ hasText: new RegExp(`\\b${nodeId}\\b`) });
const runStatus = () => page.getByTestId("run-status");
const balance = async () => (await api.account()).credits;

/** A run of `workflowId` on the PDF, waiting at its approval. */
async function waitingRun(workflowId: string): Promise<string> {
  const { runId } = await api.workflows.run(workflowId, [fileId]);
  await api.workflows.waitFor(runId, { until: ["waiting_approval"] });
  return runId;
}

async function openRun(runId: string, name: string): Promise<void> {
  await page.goto(`${srv.url}/workflows/runs/${runId}`);
  await page.getByRole("heading", { level: 1, name, exact: true }).waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  api = await srv.user();
  fileId = (await api.files.upload(new Blob([(await makePdf(2, "plan.pdf")) as Uint8Array<ArrayBuffer>]), { filename: "plan.pdf", mime: "application/pdf" })).fileId;
  gateId = (await api.workflows.create({ name: "Check then compress", graphJson: approvalGraph() })).id;
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 }, reducedMotion: "reduce" });
  page = await context.newPage();
  logPageErrors(page);
  page.on("console", (m) => m.type() === "error" && !/Failed to load resource/.test(m.text()) && console.log(`[browser console.error] ${m.text()}`));
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, api.email);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe("workflow runs in the browser", () => {
  let doneRunId = "";

  test("a run page follows its run live, without a reload, to succeeded", async () => {
    const runId = await waitingRun(gateId);
    await openRun(runId, "Check then compress");
    await step("gate").getByText("waiting_approval", { exact: true }).waitFor({ timeout: 30_000 });
    await expect(step("shrink").getByText("queued", { exact: true }).count()).resolves.toBe(1);
    // The page follows the run's event stream (not the fallback poll).
    await page.locator('[data-live="stream"]').waitFor({ state: "attached", timeout: 30_000 });
    // A mark on the window: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { runMark: number }).runMark = 1));
    await api.workflows.approve(runId, { decision: "approved", note: "from the API" });
    await runStatus().getByText("succeeded", { exact: true }).waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => (window as unknown as { runMark?: number }).runMark)).toBe(1);
    // The nav's count of waiting approvals follows too.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals", exact: true }).waitFor({ timeout: 30_000 });
    for (const id of ["src", "gate", "shrink", "dl"]) await step(id).getByText("succeeded", { exact: true }).waitFor({ timeout: 30_000 });
    // The graph shows the steps coloured by status; the result can be downloaded.
    expect(await page.locator(".react-flow__node.tone-good").count()).toBe(4);
    // The timeline: a bar for each step, each with its duration.
    expect(await page.locator(".timeline-bar.tone-good").count()).toBe(4);
    const results = page.getByRole("list", { name: "Results" });
    await results.getByRole("link", { name: /^Download / }).first().waitFor({ timeout: 30_000 });
    await expectNoSeriousViolations();
    await shoot("run-page-succeeded");
    doneRunId = runId;
  }, 120_000);

  test("without the event stream the page polls and still follows the run", async () => {
    const runId = await waitingRun(gateId);
    const events = `**/api/workflows/runs/${runId}/events`;
    await page.route(events, (route) => route.abort());
    try {
      await openRun(runId, "Check then compress");
      await page.locator('[data-live="poll"]').waitFor({ state: "attached", timeout: 30_000 });
      await api.workflows.approve(runId, { decision: "approved" });
      await runStatus().getByText("succeeded", { exact: true }).waitFor({ timeout: 60_000 });
      await step("dl").getByText("succeeded", { exact: true }).waitFor({ timeout: 30_000 });
    } finally {
      await page.unroute(events);
    }
  }, 120_000);

  test("an approval rejected on the page fails its step with the code and what to do; Retry failed steps completes the run, free", async () => {
    const runId = await waitingRun(gateId);
    await openRun(runId, "Check then compress");
    const approvals = page.getByRole("region", { name: "Waiting for approval" });
    await approvals.getByRole("textbox", { name: "Note" }).fill("wrong sheet");
    await approvals.getByRole("button", { name: "Reject", exact: true }).click();
    await runStatus().getByText("failed", { exact: true }).waitFor({ timeout: 60_000 });
    const gate = step("gate");
    await gate.getByText("failed", { exact: true }).waitFor();
    await gate.getByText("APPROVAL_REJECTED").waitFor();
    await gate.getByText(/What to do: .*Retry the failed steps/).waitFor();
    await step("shrink").getByText("skipped", { exact: true }).waitFor();
    expect((await api.workflows.runDetail(runId)).approvals.some((a) => a.decision === "rejected" && a.note === "wrong sheet")).toBe(true);
    await shoot("run-page-failed");

    const before = await balance();
    await page.getByText("Retry failed steps: on version 1, free.").waitFor();
    await page.getByRole("button", { name: "Retry failed steps" }).click();
    const dialog = page.getByRole("dialog", { name: "Retry failed steps?" });
    await dialog.getByText(/version 1.*Free/s).first().waitFor();
    await dialog.getByRole("button", { name: "Retry on version 1, free" }).click();
    await runStatus().getByText("waiting_approval", { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole("region", { name: "Waiting for approval" }).getByRole("button", { name: "Approve", exact: true }).click();
    await runStatus().getByText("succeeded", { exact: true }).waitFor({ timeout: 60_000 });
    await step("gate").getByText("Attempt 2").waitFor();
    expect(await balance()).toBe(before);
  }, 120_000);

  test("Replay says its charge and opens the new run; Cancel says the refund", async () => {
    const estimate = await api.workflows.estimate(gateId);
    await openRun(doneRunId, "Check then compress");
    let before = await balance();
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    const replay = page.getByRole("dialog", { name: "Replay this run?" });
    const charge = `${estimate.credits} credits`;
    await replay.getByText(`It costs ${charge}.`).waitFor({ timeout: 30_000 });
    await replay.getByRole("button", { name: `Replay for ${charge}` }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/workflows/runs/") && !url.pathname.endsWith(doneRunId), { timeout: 30_000 });
    const newRunId = page.url().split("/").pop()!;
    expect((await api.workflows.runDetail(newRunId)).run).toMatchObject({ trigger: "replay", replayOf: doneRunId, credits: estimate.credits });
    expect(await balance()).toBe(before - estimate.credits);
    await runStatus().getByText("waiting_approval", { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByText(`${estimate.credits} credits charged`).waitFor();

    before = await balance();
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    const cancel = page.getByRole("dialog", { name: "Cancel this run?" });
    // One op step (compress) has not started: its per-step credit comes back.
    await cancel.getByText("About 1 credit come back").waitFor({ timeout: 30_000 });
    await cancel.getByRole("button", { name: "Cancel run" }).click();
    await runStatus().getByText("cancelled", { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByText("Cancelled; 1 credit refunded.").waitFor();
    await page.getByText(`${estimate.credits} credits charged, 1 refunded`).waitFor({ timeout: 30_000 });
    await step("shrink").getByText("cancelled", { exact: true }).waitFor();
    expect(await balance()).toBe(before + 1);
    await shoot("run-page-cancelled");
  }, 120_000);

  test("the approvals inbox approves one run and rejects another, and says why it cannot decide twice or late", async () => {
    const first = await waitingRun(gateId);
    const second = await waitingRun(gateId);
    const nav = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Approvals/ });
    await page.goto(`${srv.url}/approvals`);
    await page.getByRole("heading", { level: 1, name: "Approvals" }).waitFor({ timeout: 30_000 });
    await waitFor("the nav's count", () => nav.textContent(), (t) => t === "Approvals (2)");
    const entry = (runId: string) => page.getByRole("list", { name: "Approvals" }).getByRole("listitem").filter({ has: page.locator(`a[href$="/workflows/runs/${runId}"]`) });
    await entry(first).getByRole("link", { name: "Download plan.pdf" }).waitFor({ timeout: 30_000 });
    await entry(first).getByText(/\d+ h( \d+ min)? left/).waitFor();
    await expectNoSeriousViolations();
    await shoot("approvals-inbox");

    await entry(first).getByRole("textbox", { name: "Note" }).fill("good to go");
    await entry(first).getByRole("button", { name: "Approve", exact: true }).click();
    await entry(first).waitFor({ state: "detached", timeout: 30_000 });
    await entry(second).getByRole("button", { name: "Reject", exact: true }).click();
    await entry(second).waitFor({ state: "detached", timeout: 30_000 });
    const approved = await api.workflows.waitFor(first);
    expect(approved.run.status).toBe("succeeded");
    expect(approved.approvals[0]).toMatchObject({ decision: "approved", note: "good to go" });
    expect((await api.workflows.waitFor(second)).run).toMatchObject({ status: "failed", error: { code: "APPROVAL_REJECTED" } });
    await page.getByText("Nothing waits for you.").waitFor({ timeout: 30_000 });

    // Decided elsewhere while the page still shows it: the server's reason is shown.
    const twice = await waitingRun(gateId);
    await page.reload();
    await entry(twice).waitFor({ timeout: 30_000 });
    await api.workflows.approve(twice, { decision: "approved" });
    await entry(twice).getByRole("button", { name: "Approve", exact: true }).click();
    await entry(twice).getByRole("alert").getByText(/already decided: approved/).waitFor({ timeout: 30_000 });

    // Past its time: the run failed with APPROVAL_TIMEOUT, and deciding says so.
    const late = (await api.workflows.create({ name: "Quick gate", graphJson: approvalGraph(2) })).id;
    const lateRun = await waitingRun(late);
    await page.reload();
    await entry(lateRun).waitFor({ timeout: 30_000 });
    expect((await api.workflows.waitFor(lateRun, { timeoutMs: 30_000 })).run.error?.code).toBe("APPROVAL_TIMEOUT");
    await entry(lateRun).getByRole("button", { name: "Reject", exact: true }).click();
    await entry(lateRun).getByRole("alert").getByText(/expired .*nobody decided in time/).waitFor({ timeout: 30_000 });
  }, 180_000);

  test("the runs list shows every run newest first and filters by status, this device's runs apart", async () => {
    await page.goto(`${srv.url}/workflows/runs`);
    await page.getByRole("heading", { level: 1, name: "Runs" }).waitFor({ timeout: 30_000 });
    // A run made on this device, as the browser runner keeps it (IndexedDB).
    await page.evaluate(async (workflowId) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open("vektor-device-runs", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("runs", { keyPath: "id" }).createIndex("createdAt", "createdAt");
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const at = new Date().toISOString();
      const tx = db.transaction("runs", "readwrite");
      tx.objectStore("runs").put({ id: "dev_1", engine: "device", workflowId, workflowName: "Local sheets", versionId: null, status: "succeeded", createdAt: at, finishedAt: at, error: null, inputs: [], outputs: [{ name: "a.pdf", size: 10, format: "pdf" }], steps: [] });
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    }, gateId);
    await page.reload();
    const device = page.getByRole("region", { name: "This device" });
    await device.getByRole("row").filter({ hasText: "Local sheets" }).waitFor({ timeout: 30_000 });
    const server = page.getByRole("region", { name: "On the server" });
    await server.getByRole("row").nth(1).waitFor({ timeout: 30_000 });
    const listed = (await api.workflows.runs.list({ limit: 50 })).items;
    expect(await server.getByRole("row").count()).toBe(listed.length + 1);
    await page.getByRole("combobox", { name: "Status" }).selectOption("cancelled");
    await waitFor("the cancelled run alone", () => server.getByRole("row").count(), (n) => n === 2);
    await server.getByText("cancelled", { exact: true }).waitFor();
    await device.getByText("No run on this device matches.").waitFor();
    // Any status, one workflow: the approval that timed out is Quick gate's only run.
    await page.getByRole("combobox", { name: "Status" }).selectOption("");
    await page.getByRole("combobox", { name: "Workflow" }).selectOption({ label: "Quick gate" });
    await waitFor("Quick gate's run alone", () => server.getByRole("row").count(), (n) => n === 2);
    await server.getByRole("row").nth(1).getByText("failed", { exact: true }).waitFor();
    await expectNoSeriousViolations();
    await shoot("runs-list");

    // The workflow's own history, in its editor: every run of it, each opening its page.
    await page.goto(`${srv.url}/workflows/${gateId}`);
    await page.getByRole("button", { name: "Run history" }).click();
    const history = page.getByRole("list", { name: "Runs of this workflow" });
    await history.getByRole("listitem").first().waitFor({ timeout: 30_000 });
    const own = (await api.workflows.runs(gateId, { limit: 10 })).items;
    expect(await history.getByRole("listitem").count()).toBe(own.length);
    await history.getByRole("link").first().click();
    await page.waitForURL(`**/workflows/runs/${own[0]!.runId}`, { timeout: 30_000 });
  }, 120_000);

  test("a sub-workflow's steps are listed under its step, with their own files", async () => {
    const line = (...nodes: [string, string, Record<string, unknown>?][]) =>
      JSON.stringify({
        nodes: nodes.map(([id, type, params], i) => ({ id, type, position: { x: i * 300, y: 0 }, data: { type, ...(params ? { params } : {}) } })),
        edges: nodes.slice(1).map(([id], i) => ({ source: nodes[i]![0], target: id })),
      });
    const inner = await api.workflows.create({ name: "Turn pages", graphJson: line(["from", "source.upload"], ["turn", "op.pdf.rotate", { degrees: 90 }]) });
    const outer = await api.workflows.create({ name: "Outer", graphJson: line(["src", "source.upload"], ["sub", "op.workflow", { workflowId: inner.id }], ["dl", "sink.download"]) });
    const { runId } = await api.workflows.run(outer.id, [fileId]);
    expect((await api.workflows.waitFor(runId)).run.status).toBe("succeeded");
    await openRun(runId, "Outer");
    const nested = step("sub").getByRole("list", { name: /^Steps of / });
    const turn = nested.getByRole("listitem").filter({ hasText: "sub/turn" });
    await turn.getByText("succeeded", { exact: true }).waitFor({ timeout: 30_000 });
    await turn.getByText(/^Files of .*: 1 in, 1 out$/).click();
    await turn.getByRole("link", { name: /^Download / }).first().waitFor();
  }, 120_000);

  test("the e-mail's link opens the run page after sign-in", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const visitor = await context.newPage();
    logPageErrors(visitor);
    await visitor.goto(`${srv.url}/workflows/runs/${doneRunId}`);
    await visitor.getByRole("heading", { level: 1, name: "Sign in" }).waitFor({ timeout: 30_000 });
    await visitor.getByLabel("Email").fill(api.email);
    await visitor.getByLabel("Password").fill(PASSWORD);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await visitor.getByRole("heading", { level: 1, name: "Check then compress" }).waitFor({ timeout: 30_000 });
    expect(new URL(visitor.url()).pathname).toBe(`/workflows/runs/${doneRunId}`);
    await context.close();
  }, 120_000);
});
