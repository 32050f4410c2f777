/**
 * Workflows on this device, in Chromium: the editor's run dialog chooses where a run goes and
 * says why (an approval with a timeout sends it to the server; a plain graph stays on this
 * device), and a 3-step workflow (filter, op, zip) runs in the browser on local files. It runs
 * once online (which keeps the PDF tools for offline use), then the network is cut and the
 * server stopped, and it runs again: the status says this device ran it, each output has its
 * download, and Download all gives a STORE ZIP of them. Try up to here runs the steps up to one
 * step, as just applied and unsaved, and offers that step's outputs. Screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { VektorClient } from "@vektor/shared/client";
import { unzipSync } from "fflate";
import { PDFDocument } from "pdf-lib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths, signIn } from "./support/app";
import { launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { TOOLS_CACHE } from "../web/src/tools/cache-name";
import { requireWebBuild, type FileSpec } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");

let srv: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: VektorClient & { email: string };
let deviceFlow = "";
let approvalFlow = "";
let askFlow = "";
let files: FileSpec[] = [];
/** The offline test stops the server itself. */
let serverStopped = false;

const graphJson = (nodes: [string, string, Record<string, unknown>?][]) =>
  JSON.stringify({
    nodes: nodes.map(([id, type, params], i) => ({ id, type, position: { x: 0, y: i * 120 }, data: { type, ...(params ? { params } : {}) } })),
    edges: nodes.slice(1).map(([id], i) => ({ id: `e${i}`, source: nodes[i][0], target: id })),
  });

const dialog = () => page.getByRole("dialog", { name: /^Run / });
const runOn = () => dialog().getByRole("group", { name: "Run on" });

async function openRunDialog(workflowId: string, name: string): Promise<void> {
  await page.goto(`${srv.url}/workflows/${workflowId}`);
  await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await dialog().waitFor();
}

const shoot = (name: string) => shootAtTwoWidths(page, SHOTS, name);

/** Picks the local files and starts the run on this device. */
async function startOnThisDevice(): Promise<void> {
  await runOn().getByRole("radio", { name: "This device" }).waitFor();
  expect(await runOn().getByRole("radio", { name: "This device" }).isChecked()).toBe(true);
  await dialog().getByLabel("Files", { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mime, buffer: Buffer.from(f.bytes) })));
  await dialog().getByRole("button", { name: "Start run" }).click();
}

/** Waits for the status to say the run ended, and answers what it says. */
async function ended(): Promise<string> {
  await dialog().getByRole("status").filter({ hasText: /^(Done|The run)/ }).waitFor({ timeout: 120_000 });
  return (await dialog().getByRole("status").textContent()) ?? "";
}

/** Starts the run on this device and waits for the status to say it is done. */
async function runOnThisDevice(): Promise<void> {
  await startOnThisDevice();
  expect(await ended()).toMatch(/^Done on this device in [\d.]+ m?s: 1 file ready to download\.$/);
}

/** What the link (or, for Download all, the button) named `name` downloads. */
async function download(name: string | RegExp, role: "link" | "button" = "link"): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([page.waitForEvent("download"), dialog().getByRole(role, { name }).click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync(await file.path())) };
}

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  api = await srv.user();
  deviceFlow = (await api.workflows.create({ name: "Rotate on device", graphJson: graphJson([["in", "source.upload"], ["only-pdf", "logic.filter", { formats: ["pdf"] }], ["rotate", "op.pdf.rotate", { degrees: 90 }], ["zip", "sink.zip", { name: "rotated" }]]) })).id;
  askFlow = (await api.workflows.create({ name: "Ask me", graphJson: graphJson([["in", "source.upload"], ["ok", "logic.approval"], ["out", "sink.download"]]) })).id;
  approvalFlow = (await api.workflows.create({ name: "Approve first", graphJson: graphJson([["in", "source.upload"], ["ok", "logic.approval", { timeoutSeconds: 3600 }], ["out", "sink.download"]]) })).id;
  files = [
    { name: "plan.pdf", mime: "application/pdf", bytes: await makePdf(2, "Plan") },
    { name: "notes.txt", mime: "text/plain", bytes: new TextEncoder().encode("not a drawing") },
    { name: "section.pdf", mime: "application/pdf", bytes: await makePdf(1, "Section") },
  ];
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 }, reducedMotion: "reduce" });
  page = await context.newPage();
  logPageErrors(page);
  page.on("console", (m) => m.type() === "error" && !m.text().includes("ERR_INTERNET_DISCONNECTED") && console.log(`[browser console.error] ${m.text()}`));
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, api.email);
  await page.getByText("Ready to work offline.").waitFor({ timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (!serverStopped) await srv?.close();
});

describe("workflows on this device", () => {
  test("an approval with a timeout runs on the server, and the dialog says why", async () => {
    await openRunDialog(approvalFlow, "Approve first");
    const server = runOn().getByRole("radio", { name: "Server" });
    await server.waitFor();
    expect(await server.isChecked()).toBe(true);
    expect(await runOn().getByRole("radio", { name: "This device" }).isDisabled()).toBe(true);
    expect(await runOn().textContent()).toContain('Runs on the server: Step "Approval" waits for an approval with a timeout, which only the server keeps.');
    // The server's form: uploaded files and the charge, no local Files input.
    await dialog().getByText(/this run costs/).waitFor({ timeout: 30_000 });
    expect(await dialog().getByLabel("Files", { exact: true }).count()).toBe(0);
    await dialog().getByRole("button", { name: "Close" }).click();
  }, 60_000);

  test("filter, op and zip run on this device, online first (which keeps the PDF tools)", async () => {
    await openRunDialog(deviceFlow, "Rotate on device");
    expect(await runOn().textContent()).toContain("Runs on this device: your files are not uploaded and the run costs no credits.");
    await runOnThisDevice();
    const steps = dialog().getByRole("list", { name: "Steps" }).getByRole("listitem");
    expect(await steps.allTextContents()).toEqual(["Uploaded files succeeded", "Filter files succeeded", "Rotate PDF pages succeeded", "ZIP succeeded"]);
    expect(await dialog().getByRole("link", { name: "Download rotated.zip" }).count()).toBe(1);
    // The run is kept in this browser (IndexedDB) with its steps and output names, for the runs list.
    const kept = await page.evaluate(
      () =>
        new Promise<unknown[]>((resolve, reject) => {
          const open = indexedDB.open("vektor-device-runs");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction("runs").objectStore("runs").getAll();
            all.onsuccess = () => resolve(all.result);
          };
        }),
    );
    expect(kept).toEqual([
      expect.objectContaining({
        engine: "device",
        workflowId: deviceFlow,
        workflowName: "Rotate on device",
        status: "succeeded",
        inputs: files.map((f) => ({ name: f.name, size: f.bytes.length, format: f.name.endsWith(".pdf") ? "pdf" : "txt" })),
        outputs: [expect.objectContaining({ name: "rotated.zip", format: "zip" })],
        steps: ["in", "only-pdf", "rotate", "zip"].map((nodeId) => expect.objectContaining({ nodeId, status: "succeeded" })),
      }),
    ]);
  }, 180_000);

  test("an approval without a timeout asks in the page: Approve lets the files on, Reject fails the run", async () => {
    await openRunDialog(askFlow, "Ask me");
    await startOnThisDevice();
    const ask = dialog().getByRole("region", { name: "Step “Approval” waits for your approval" });
    await ask.waitFor({ timeout: 30_000 });
    expect(await dialog().getByRole("status").textContent()).toBe("Waiting on this device for your approval of step “Approval”.");
    expect(await ask.textContent()).toContain("It gates plan.pdf, notes.txt, section.pdf.");
    await ask.getByRole("button", { name: "Approve" }).click();
    expect(await ended()).toMatch(/^Done on this device in [\d.]+ m?s: 3 files ready to download\.$/);
    expect(await dialog().getByRole("link", { name: /^Download / }).allTextContents()).toEqual(["Download plan.pdf", "Download notes.txt", "Download section.pdf"]);
    expect(await dialog().getByRole("button", { name: "Download all" }).isVisible()).toBe(true);

    await dialog().getByRole("button", { name: "Start run" }).click();
    await ask.getByRole("textbox", { name: "Note" }).fill("wrong sheets");
    await ask.getByRole("button", { name: "Reject" }).click();
    expect(await ended()).toBe("The run on this device failed: Step ok: Rejected: wrong sheets");
    expect(await dialog().getByRole("list", { name: "Steps" }).getByRole("listitem").allTextContents()).toEqual(["Uploaded files succeeded", "Approval failed Rejected: wrong sheets", "Download skipped"]);
    await dialog().getByRole("button", { name: "Close" }).click();
  }, 120_000);

  test("Try up to here runs the steps up to one step, with its settings as just applied, on this device; the results are that step's outputs", async () => {
    await page.goto(`${srv.url}/workflows/${deviceFlow}`);
    await page.getByRole("heading", { level: 1, name: "Rotate on device" }).waitFor({ timeout: 30_000 });
    const rotate = page.getByRole("list", { name: "Steps", exact: true }).getByRole("listitem").filter({ hasText: "Rotate PDF pages" });
    await rotate.getByRole("button", { name: "Settings", exact: true }).click();
    await page.getByLabel("Degrees", { exact: true }).selectOption({ label: "180" });
    await page.getByRole("button", { name: "Try up to here" }).click();
    const tryDialog = page.getByRole("dialog", { name: /^Try Rotate on device up to “.*Rotate PDF pages.*”$/ });
    await tryDialog.waitFor();
    expect(await tryDialog.textContent()).toContain("Runs 3 steps as they are in the editor now, saved or not, on this device only");
    expect(await tryDialog.getByRole("group", { name: "Run on" }).count()).toBe(0);
    await tryDialog.getByLabel("Files", { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mime, buffer: Buffer.from(f.bytes) })));
    await tryDialog.getByRole("button", { name: "Start run" }).click();
    await tryDialog.getByRole("status").filter({ hasText: /^(Done|The run)/ }).waitFor({ timeout: 120_000 });
    expect(await tryDialog.getByRole("status").textContent()).toMatch(/^Done on this device in [\d.]+ m?s: 2 files ready to download\.$/);
    expect(await tryDialog.getByRole("list", { name: "Steps" }).getByRole("listitem").allTextContents()).toEqual(["Uploaded files succeeded", "Filter files succeeded", "Rotate PDF pages succeeded"]);
    expect(await tryDialog.getByRole("link", { name: /^Download / }).allTextContents()).toEqual(["Download plan-rotated.pdf", "Download section-rotated.pdf"]);
    const [file] = await Promise.all([page.waitForEvent("download"), tryDialog.getByRole("link", { name: "Download section-rotated.pdf" }).click()]);
    const rotated = await PDFDocument.load(readFileSync(await file.path()));
    expect(rotated.getPages().map((p) => p.getRotation().angle)).toEqual([180]); // the applied 180, not the saved 90
    await shoot("workflow-try");
    await tryDialog.getByRole("button", { name: "Close" }).click();
    // The applied change is the editor's, unsaved: undo it, so the saved version is what the next test runs.
    await page.getByText("Unsaved changes.").waitFor();
    await page.getByRole("button", { name: "Undo", exact: true }).click();
    await page.getByText("All changes saved.").waitFor();
  }, 180_000);

  test("with the network cut and the server stopped it runs again; Download all gives the ZIP", async () => {
    await openRunDialog(deviceFlow, "Rotate on device");
    // The tools the first run used are kept once used (the service worker caches them as they load).
    await page.waitForFunction(async (name) => (await (await caches.open(name)).keys()).length > 0, TOOLS_CACHE, { timeout: 60_000 });
    await context.setOffline(true);
    await srv.close();
    serverStopped = true;
    expect(await page.evaluate(() => fetch("/api/health").then(() => "reached", () => "unreachable"))).toBe("unreachable");
    await runOnThisDevice();
    const each = await download("Download rotated.zip");
    const all = await download("Download all", "button");
    expect(all.name).toBe("Rotate on device outputs.zip");
    // Download all packs the run's outputs (here the workflow's own ZIP), each entry stored.
    expect(Object.keys(unzipSync(all.bytes))).toEqual(["rotated.zip"]);
    expect(Bun.hash(unzipSync(all.bytes)["rotated.zip"])).toBe(Bun.hash(each.bytes));
    const entries = unzipSync(each.bytes);
    expect(Object.keys(entries)).toEqual(["plan-rotated.pdf", "section-rotated.pdf"]);
    for (const bytes of Object.values(entries)) expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    expect(storedOnly(each.bytes)).toBe(true);
    expect(storedOnly(all.bytes)).toBe(true);
    await shoot("workflow-device-run");
  }, 180_000);
});

/** Whether every entry of a ZIP is STORE (method 0), read from its local headers. */
function storedOnly(zip: Uint8Array): boolean {
  const methods: number[] = [];
  unzipSync(zip, { filter: (f) => (methods.push(f.compression), true) });
  return methods.length > 0 && methods.every((m) => m === 0);
}
