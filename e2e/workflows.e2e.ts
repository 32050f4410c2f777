/**
 * The workflow studio in Chromium, as a person uses it: create a workflow from a template; add a
 * step through the outline and one through the canvas (dropped from the palette, then connected
 * by dragging from handle to handle); a refused connection says why; undo and redo give back
 * exactly the graph before and after (compared through Export); Tidy; Save makes a new version;
 * compare two versions and restore one; add each trigger type and fire the webhook by running
 * the shown curl + openssl command; start a run and see it on its page; copy and paste; a problem
 * leads to its step (op.workflow picks a workflow); settings with a write-only notify secret; a
 * personal template; a trigger switched off says why; duplicate and delete from the list.
 * Keyboard alone adds and connects a step. Outline hides the outline for a wider canvas, and a
 * reload keeps it hidden. axe-core on the list and the editor; screenshots at 1280 and 390 px under
 * e2e/screenshots/ (nothing wider than the phone).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { VektorClient } from "@vektor/shared/client";
import type { Browser, Locator, Page } from "playwright-core";
import { startTestServer, waitFor, type TestServer } from "../server/test/harness";
import { seriousViolations } from "./support/axe";
import { shootAtTwoWidths, signIn } from "./support/app";
import { launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { requireWebBuild } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
const TEMPLATE = "Compress and zip PDFs";

let srv: TestServer;
let browser: Browser;
let page: Page;
let api: VektorClient & { email: string };
let workflowId = "";

const shoot = (name: string) => shootAtTwoWidths(page, SHOTS, name);

const steps = () => page.getByRole("list", { name: "Steps", exact: true }).getByRole("listitem");
/** The outline's item of the step titled exactly `title`. */
const stepItem = (title: string) => steps().filter({ has: page.locator("strong", { hasText: new RegExp(`^${title}$`) }) });
const status = () => page.getByRole("status");
const edges = () => page.locator(".react-flow__edge");
const handle = (nodeId: string, type: "source" | "target") => page.locator(`.react-flow__handle.${type}[data-nodeid="${nodeId}"]`);

/** Opens "More actions" (Copy, Paste, Export, Import, Make template) when it is closed. */
async function moreActions(): Promise<void> {
  const details = page.locator("details.more-actions");
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.getByText("More actions").click();
}

/** The graph as the editor's Export writes it. */
async function exported(): Promise<string> {
  await moreActions();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export", exact: true }).click()]);
  return readFileSync(await download.path(), "utf8");
}

/** Drags from one handle to another with the mouse, as a person draws an edge. */
async function dragEdge(from: Locator, to: Locator): Promise<void> {
  await from.hover();
  await page.mouse.down();
  const box = (await to.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** The flow's nodes' ids with their positions, from the canvas. */
async function canvasPositions(): Promise<Record<string, string>> {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll<HTMLElement>(".react-flow__node")].map((n) => [n.dataset.id!, n.style.transform])));
}

async function expectNoSeriousViolations(): Promise<void> {
  const found = await seriousViolations(page);
  expect(found.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  api = await srv.user();
  // Another workflow of the caller's, for an op.workflow step to run.
  await api.workflows.create({ name: "Helper", graphJson: JSON.stringify({ nodes: [{ id: "in", type: "source.upload", position: { x: 0, y: 0 }, data: { type: "source.upload" } }], edges: [] }) });
  for (const name of ["plan.pdf", "drawing-2.pdf"]) await api.files.upload(new Blob([(await makePdf(1, name)) as Uint8Array<ArrayBuffer>]), { filename: name, mime: "application/pdf" });
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 }, reducedMotion: "reduce" });
  page = await context.newPage();
  logPageErrors(page);
  // A render error ends in the router's error screen without a pageerror: show it in the output.
  page.on("console", (m) => m.type() === "error" && console.log(`[browser console.error] ${m.text()}`));
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, api.email);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe("workflow studio", () => {
  test("New workflow from a template opens the editor with the template's steps", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Workflows" }).waitFor();
    await page.getByRole("row").filter({ hasText: "Helper" }).getByText("never run").waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "New workflow" }).click();
    const dialog = page.getByRole("dialog", { name: "New workflow" });
    // The dialog takes focus to its first field.
    expect(await dialog.getByRole("textbox", { name: "Name" }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("Drawings");
    const template = dialog.getByRole("combobox", { name: "Template" });
    const options = await template.locator("option").allTextContents();
    expect(options).toContain("Blank");
    expect(options).toContain(TEMPLATE);
    await expectNoSeriousViolations();
    await template.selectOption({ label: TEMPLATE });
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/workflows\/wf_/, { timeout: 30_000 });
    workflowId = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByRole("heading", { level: 1, name: "Drawings" }).waitFor({ timeout: 30_000 });
    await page.getByRole("region", { name: "Canvas" }).waitFor();
    await waitFor("three steps", () => steps().count(), (n) => n === 3);
    for (const title of ["Uploaded files", "Compress PDF", "ZIP"]) expect(await stepItem(title).count()).toBe(1);
    await page.locator(".react-flow__node").nth(2).waitFor();
    await waitFor("two edges", () => edges().count(), (n) => n === 2);
    await page.getByText("No problems").waitFor({ timeout: 30_000 });
  }, 120_000);

  test("add a step through the outline: Add step, search, pick; connect it with Connect to; its settings", async () => {
    await page.getByRole("button", { name: "Add step" }).click();
    await page.getByRole("searchbox", { name: "Search steps" }).fill("rename");
    await page.getByRole("option", { name: "Rename", exact: true }).click();
    await waitFor("four steps", () => steps().count(), (n) => n === 4);
    expect(await status().textContent()).toBe("Added Rename");

    await stepItem("ZIP").getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByRole("listbox", { name: "Connect to" }).getByRole("option", { name: "Rename", exact: true }).click();
    await waitFor("three edges", () => edges().count(), (n) => n === 3);
    await stepItem("Rename").getByText("Gets files from step 3.").waitFor();

    await stepItem("Rename").getByRole("button", { name: "Settings", exact: true }).click();
    const settings = page.getByRole("region", { name: "Settings of Rename" });
    await settings.getByLabel("Pattern", { exact: true }).fill("{name}-{date}{ext}");
    await settings.getByRole("button", { name: "Apply" }).click();
    await stepItem("Rename").getByText("pattern {name}-{date}{ext}").waitFor();
  }, 120_000);

  test("add a step through the canvas: drop from the palette, connect by dragging from handle to handle", async () => {
    await page.getByRole("button", { name: "Close panel" }).click();
    const palette = page.getByRole("region", { name: "Palette" });
    await palette.getByRole("button", { name: "Download", exact: true }).dragTo(page.locator(".react-flow__pane"), { targetPosition: { x: 120, y: 60 } });
    await waitFor("five steps", () => steps().count(), (n) => n === 5);
    expect(await status().textContent()).toBe("Added Download");
    await page.locator('.react-flow__node[data-id="download"]').waitFor();
    // Laid out first, so the new step sits beside the others and no step covers a handle.
    await page.getByRole("button", { name: "Tidy" }).click();
    await page.waitForTimeout(400);
    await dragEdge(handle("rename", "source"), handle("download", "target"));
    await waitFor("four edges", () => edges().count(), (n) => n === 4);
    await stepItem("Download").getByText("Gets files from step 4.").waitFor();
    expect(await status().textContent()).toBe("Connected Rename to Download");
    await page.getByText("No problems").waitFor({ timeout: 30_000 });
    await shoot("workflow-editor");
    await expectNoSeriousViolations();
  }, 120_000);

  test("a refused connection is not drawn and says why", async () => {
    await dragEdge(handle("zip", "source"), handle("compress", "target"));
    const alert = page.getByRole("alert").filter({ hasText: "Not connected" });
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toContain("would make a loop");
    expect(await edges().count()).toBe(4);
    // The outline refuses the same way.
    await stepItem("Download").getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByRole("listbox", { name: "Connect to" }).getByRole("option", { name: "Uploaded files", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Download already" }).or(page.getByRole("alert").filter({ hasText: "would make a loop" })).waitFor();
    expect(await edges().count()).toBe(4);
  }, 120_000);

  test("undo and redo give back exactly the graph before and after (buttons and keys)", async () => {
    const before = await exported();
    await stepItem("Rename").getByRole("button", { name: "Delete step" }).click();
    await waitFor("four steps", () => steps().count(), (n) => n === 4);
    const after = await exported();
    expect(after).not.toBe(before);
    expect(JSON.parse(after).edges.length).toBe(2);

    await page.getByRole("button", { name: "Undo", exact: true }).click();
    expect(await exported()).toBe(before);
    await page.getByRole("button", { name: "Redo", exact: true }).click();
    expect(await exported()).toBe(after);

    await page.locator(".react-flow__pane").click({ position: { x: 10, y: 10 } });
    await page.keyboard.press("Control+z");
    expect(await exported()).toBe(before);
    await page.keyboard.press("Control+Shift+z");
    expect(await exported()).toBe(after);
    await page.keyboard.press("Control+z");
    expect(await exported()).toBe(before);
    expect(await steps().count()).toBe(5);
  }, 120_000);

  test("Tidy lays the graph out left to right and keeps it", async () => {
    // Move a step by hand first: Tidy puts it back in its column.
    const node = page.locator('.react-flow__node[data-id="compress"]');
    const box = (await node.boundingBox())!;
    await page.mouse.move(box.x + 60, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + 220, { steps: 6 });
    await page.mouse.up();
    const moved = await canvasPositions();
    await page.getByRole("button", { name: "Tidy" }).click();
    await waitFor("Tidied", async () => (await status().textContent()) ?? "", (t) => t === "Tidied");
    // The canvas follows the graph a render later.
    await waitFor("compress back in its column", async () => (await canvasPositions()).compress, (t) => t !== moved.compress);
    const xs = JSON.parse(await exported()).nodes.map((n: { id: string; position: { x: number } }) => [n.id, n.position.x]);
    const x = Object.fromEntries(xs) as Record<string, number>;
    expect(x.source! < x.compress! && x.compress! < x.zip! && x.zip! < x.rename! && x.rename! < x.download!).toBe(true);
  }, 120_000);

  test("Save makes a new version", async () => {
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await waitFor("Saved", async () => (await status().textContent()) ?? "", (t) => t === "Saved");
    await page.getByText("All changes saved.").waitFor();
    const versions = await api.workflows.versions(workflowId);
    expect(versions.length).toBe(2);
    const saved = JSON.parse((await api.workflows.get(workflowId)).graphJson);
    expect(saved.nodes.map((n: { id: string }) => n.id).sort()).toEqual(["compress", "download", "rename", "source", "zip"]);
  }, 120_000);

  test("Versions: compare the two, then restore the first", async () => {
    await page.getByRole("button", { name: "Versions", exact: true }).click();
    const panel = page.getByRole("region", { name: "Versions" });
    await panel.getByRole("button", { name: "View version 1" }).click();
    const view = panel.getByRole("region", { name: /^Version 1 \(read-only\)/ });
    await view.getByText("Connections: Uploaded files → Compress PDF; Compress PDF → ZIP").waitFor({ timeout: 30_000 });
    expect(await view.getByRole("listitem").count()).toBe(3);
    await panel.getByRole("checkbox", { name: /^Version 1,/ }).check();
    await panel.getByRole("checkbox", { name: /^Version 2,/ }).check();
    await panel.getByRole("button", { name: "Compare selected" }).click();
    const diff = panel.getByRole("region", { name: "Changes from version 1 to version 2" });
    await diff.getByText("Steps added").waitFor({ timeout: 30_000 });
    const text = (await diff.textContent()) ?? "";
    expect(text).toContain("Rename (rename)");
    expect(text).toContain("Download (download)");
    expect(text).toContain("Connections added");
    expect(text).toContain("ZIP (zip) → Rename (rename)");
    await shoot("workflow-versions");
    await expectNoSeriousViolations();

    await panel.getByRole("button", { name: "Restore version 1" }).click();
    await waitFor("restored", async () => (await status().textContent()) ?? "", (t) => t.startsWith("Restored"));
    await waitFor("three steps", () => steps().count(), (n) => n === 3);
    await waitFor("two edges", () => edges().count(), (n) => n === 2);
    const versions = await api.workflows.versions(workflowId);
    expect(versions.length).toBe(3);
    const current = JSON.parse((await api.workflows.get(workflowId)).graphJson);
    expect(current.nodes.map((n: { id: string }) => n.id).sort()).toEqual(["compress", "source", "zip"]);
    await page.getByText("All changes saved.").waitFor();
  }, 120_000);

  test("Triggers: a webhook fired with the shown curl + openssl example, a schedule, a watch", async () => {
    await page.getByRole("button", { name: "Triggers", exact: true }).click();
    const panel = page.getByRole("region", { name: "Triggers" });
    await panel.getByRole("button", { name: "Add webhook" }).click();
    const secret = await panel.getByRole("textbox", { name: "Webhook secret" }).inputValue();
    expect(secret).toMatch(/^whs_/);
    const example = await panel.getByRole("textbox", { name: "Example call (curl and openssl)" }).inputValue();
    expect(example).toContain(secret);
    // Asynchronously: the server answering it runs in this process.
    const call = Bun.spawn(["bash", "-c", example], { stdout: "pipe", stderr: "pipe" });
    const [out, err, exit] = await Promise.all([new Response(call.stdout).text(), new Response(call.stderr).text(), call.exited]);
    expect({ exit, err }).toEqual({ exit: 0, err: "" });
    const answer = JSON.parse(out) as { ok: boolean; data?: { runId: string } };
    expect(answer.ok).toBe(true);
    const runs = await api.workflows.runs(workflowId);
    expect(runs.items.map((r) => [r.runId, r.trigger])).toEqual([[answer.data!.runId, "webhook"]]);
    // Rotate: a new secret, shown once, in the example too.
    await panel.getByRole("button", { name: "Rotate secret" }).click();
    await waitFor("a new secret", () => panel.getByRole("textbox", { name: "Webhook secret" }).inputValue(), (v) => v !== secret && v.startsWith("whs_"));
    expect(await panel.getByRole("textbox", { name: "Example call (curl and openssl)" }).inputValue()).toContain(await panel.getByRole("textbox", { name: "Webhook secret" }).inputValue());

    const cron = panel.getByRole("textbox", { name: "Cron" });
    await cron.fill("*/15 * * * *");
    await panel.getByText("Next five runs:").waitFor();
    expect(await panel.locator("table.fires tbody tr").count()).toBe(5);
    await panel.getByRole("button", { name: "Add schedule" }).click();
    await panel.getByRole("button", { name: "Delete schedule" }).waitFor();

    await panel.getByRole("textbox", { name: "Prefix" }).fill("plan");
    await panel.getByRole("textbox", { name: "Suffix" }).fill(".PDF");
    await panel.getByText("1 of your recent uploads would match:").waitFor();
    await panel.getByText("plan.pdf").waitFor();
    await panel.getByRole("button", { name: "Add watch" }).click();
    await panel.getByRole("button", { name: "Delete watch" }).waitFor();

    const triggers = await api.workflows.triggers.list(workflowId);
    expect(triggers.map((t) => [t.type, t.config]).sort()).toEqual([
      ["schedule", { cron: "*/15 * * * *" }],
      ["watch", { prefix: "plan", suffix: ".PDF" }],
      ["webhook", {}],
    ]);
    await shoot("workflow-triggers");
    await expectNoSeriousViolations();
  }, 120_000);

  test("Run on the server: pick an uploaded file, see the charge, start, land on the run's page", async () => {
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Run Drawings" });
    // Every step of it runs in the browser too, so This device is chosen first; the server is a pick.
    await dialog.getByRole("group", { name: "Run on" }).getByText(/^Runs on this device/).waitFor();
    await dialog.getByRole("radio", { name: "Server" }).check();
    await dialog.getByRole("group", { name: "Run on" }).getByText(/^You picked the server/).waitFor();
    await dialog.getByRole("checkbox", { name: "plan.pdf" }).check();
    await dialog.getByText(/^1 file: this run costs \d+ credits? \(1 of \d+ steps\)\.$/).waitFor({ timeout: 30_000 });
    await expectNoSeriousViolations();
    await dialog.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL(/\/workflows\/runs\/run_/, { timeout: 30_000 });
    // The run page is headed with the workflow's name.
    await page.getByRole("heading", { level: 1, name: "Drawings" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("run-status").getByText("succeeded", { exact: true }).waitFor({ timeout: 90_000 });
    const runId = new URL(page.url()).pathname.split("/").pop()!;
    const detail = await api.workflows.runDetail(runId);
    expect(detail.run.trigger).toBe("manual");
    expect(detail.run.inputFileIds.length).toBe(1);
  }, 180_000);

  test("copy and paste, a problem that leads to its step (op.workflow picks a workflow), settings with a write-only secret, a personal template", async () => {
    await page.goto(`${srv.url}/workflows/${workflowId}`);
    await waitFor("three steps", () => steps().count(), (n) => n === 3);

    await stepItem("ZIP").getByRole("button", { name: "Show on canvas" }).click();
    await moreActions();
    await page.getByRole("button", { name: "Copy steps" }).click();
    expect(await status().textContent()).toBe("Copied 1 step");
    await page.getByRole("button", { name: "Paste steps" }).click();
    await waitFor("pasted", async () => (await status().textContent()) ?? "", (t) => t === "Pasted 1 step");
    expect(await steps().count()).toBe(4);
    await page.getByRole("button", { name: "Undo", exact: true }).click();
    expect(await steps().count()).toBe(3);

    await page.getByRole("button", { name: "Add step" }).click();
    await page.getByRole("searchbox", { name: "Search steps" }).fill("run a workflow");
    await page.getByRole("option", { name: "Run a workflow", exact: true }).click();
    const problems = page.getByRole("list", { name: "Problems" });
    const problem = problems.getByRole("button").filter({ hasText: "Run a workflow" });
    await problem.waitFor({ timeout: 30_000 });
    expect(await stepItem("Run a workflow").locator(".step-item-problem").count()).toBe(1);
    expect(await page.locator('.react-flow__node[data-id="workflow"] .step-problem').count()).toBe(1);
    await problem.click();
    const settings = page.getByRole("region", { name: "Settings of Run a workflow" });
    await settings.getByRole("combobox", { name: "Workflow to run" }).selectOption({ label: "Helper" });
    await settings.getByRole("button", { name: "Apply" }).click();
    await stepItem("Run a workflow").getByText(/^workflowId wf_/).waitFor();
    await page.getByText("No problems").waitFor({ timeout: 30_000 });
    await stepItem("Run a workflow").getByRole("button", { name: "Delete step" }).click();
    expect(await steps().count()).toBe(3);

    await page.getByRole("button", { name: "Workflow settings" }).click();
    const panel = page.getByRole("region", { name: "Workflow settings" });
    await panel.getByRole("textbox", { name: "Notify URL" }).fill("https://example.com/hooks/drawings");
    await panel.getByLabel("Notify secret").fill("s3cret-value");
    expect(await panel.getByRole("checkbox", { name: "E-mail me when a run ends" }).isDisabled()).toBe(true);
    await panel.getByText("Off: the administrator has not turned e-mail on completion on").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await waitFor("Saved", async () => (await status().textContent()) ?? "", (t) => t === "Saved");
    const saved = await api.workflows.get(workflowId);
    expect({ params: JSON.parse(saved.paramsJson!), secretSet: saved.notifySecretSet }).toEqual({ params: { notifyUrl: "https://example.com/hooks/drawings" }, secretSet: true });
    await panel.getByText("A secret is set; it is never shown.").waitFor();
    expect(await panel.getByLabel("Notify secret").inputValue()).toBe("");

    await moreActions();
    await page.getByRole("button", { name: "Make template" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a personal template" });
    await dialog.getByRole("textbox", { name: "Template name" }).fill("Drawings template");
    await dialog.getByRole("button", { name: "Create template" }).click();
    await waitFor("template", async () => (await status().textContent()) ?? "", (t) => t === "Template Drawings template created");
    const template = (await api.workflows.templates.list()).find((t) => t.name === "Drawings template");
    expect(template).toMatchObject({ builtIn: false, notifySecretSet: false });
    expect(JSON.parse(template!.paramsJson!)).toEqual({ notifyUrl: "https://example.com/hooks/drawings" });
  }, 120_000);

  test("a trigger switch the administrator turned off is shown with the reason", async () => {
    const admin = await srv.admin();
    await admin.admin.setConfig("workflow_configs", { "workflow.watch_enabled": false });
    try {
      await page.reload();
      await page.getByRole("button", { name: "Triggers", exact: true }).click();
      const panel = page.getByRole("region", { name: "Triggers" });
      await panel.getByText("Watch triggers are turned off by the administrator (workflow.watch_enabled).").waitFor({ timeout: 30_000 });
      expect(await panel.getByText(/Webhook triggers are turned off/).count()).toBe(0);
    } finally {
      await admin.admin.setConfig("workflow_configs", { "workflow.watch_enabled": true });
    }
  }, 120_000);

  test("the list shows the workflow with its last run and triggers; axe finds nothing serious", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows", exact: true }).click();
    const row = page.getByRole("row").filter({ hasText: "Drawings" });
    await row.getByText("succeeded").waitFor({ timeout: 30_000 });
    await row.getByText("webhook, schedule, watch").waitFor();
    await page.getByRole("searchbox", { name: "Search by name" }).fill("draw");
    await row.waitFor();
    await page.getByRole("searchbox", { name: "Search by name" }).fill("nothing like it");
    await page.getByText("No workflow has that name.").waitFor();
    await page.getByRole("searchbox", { name: "Search by name" }).fill("");
    await expectNoSeriousViolations();
    await shoot("workflows-list");

    // Duplicate opens the copy; delete asks first.
    await row.getByRole("button", { name: "Duplicate Drawings" }).click();
    await page.getByRole("heading", { level: 1, name: "Copy of Drawings" }).waitFor({ timeout: 30_000 });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows", exact: true }).click();
    const copy = page.getByRole("row").filter({ hasText: "Copy of Drawings" });
    await copy.getByRole("button", { name: "Delete Copy of Drawings" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Copy of Drawings?" });
    await confirm.getByRole("button", { name: "Delete workflow" }).click();
    await copy.waitFor({ state: "detached", timeout: 30_000 });
    expect((await api.workflows.list()).items.map((w) => w.name).sort()).toEqual(["Drawings", "Helper"]);
    // The personal template is offered by New workflow.
    await page.getByRole("button", { name: "New workflow" }).click();
    await page.getByRole("dialog", { name: "New workflow" }).getByRole("combobox", { name: "Template" }).locator("option", { hasText: "Drawings template" }).waitFor({ state: "attached", timeout: 30_000 });
    await page.getByRole("dialog", { name: "New workflow" }).getByRole("button", { name: "Cancel" }).click();
  }, 120_000);

  test("keyboard alone: add a step and connect it from the outline", async () => {
    await page.getByRole("link", { name: "Drawings", exact: true }).click();
    await waitFor("three steps", () => steps().count(), (n) => n === 3);
    await page.getByRole("button", { name: "Add step" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.type("download");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await waitFor("four steps", () => steps().count(), (n) => n === 4);
    await stepItem("ZIP").getByRole("button", { name: "Connect", exact: true }).focus();
    await page.keyboard.press("Enter");
    // Focus is in the list of steps to connect to; pick Download with the arrows.
    const options = await page.getByRole("listbox", { name: "Connect to" }).getByRole("option").allTextContents();
    for (let i = 0; i < options.findIndex((o) => o.startsWith("Download")); i++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await stepItem("Download").getByText("Gets files from step 3.").waitFor();
    // The canvas draws the edge once the new step is measured.
    await waitFor("three edges", () => edges().count(), (n) => n === 3);
    const focused = await page.evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe("Connect");
  }, 120_000);

  test("at 1280 px the canvas is most of the width; Outline hides the outline for more, its problems head the side column, and a reload keeps it so", async () => {
    const canvasWidth = () => page.locator(".editor-canvas").evaluate((e) => e.getBoundingClientRect().width);
    const outlineButton = () => page.getByRole("button", { name: "Outline", exact: true });
    const shown = await canvasWidth();
    expect(shown).toBeGreaterThan(700);
    expect(await outlineButton().getAttribute("aria-pressed")).toBe("true");
    await outlineButton().click();
    await page.locator("#editor-outline").waitFor({ state: "hidden" });
    expect(await canvasWidth()).toBeGreaterThan(shown + 200); // the outline's 14rem and a gap
    await page.locator(".problems-aside").getByRole("heading", { name: "Problems" }).waitFor();
    await page.reload();
    await page.locator(".react-flow__node").first().waitFor();
    expect(await outlineButton().getAttribute("aria-pressed")).toBe("false");
    expect(await page.locator("#editor-outline").isVisible()).toBe(false);
    await outlineButton().click();
    await steps().first().waitFor();
    expect(await page.locator(".problems-aside").count()).toBe(0);
  }, 60_000);
});
