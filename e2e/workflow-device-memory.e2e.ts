/**
 * A big PDF through a workflow run on this device (issue 27): the run holds its files as Blobs
 * (the picked File itself, each step's outputs), each tool is given the Blob and its head, and
 * ZIPs are written from Blobs, so the page never holds a whole file. In Debian's Chromium against
 * the real server, signed in, through the editor's run dialog: a PDF of E2E_WF_MEMORY_MB (default
 * 64) MB of scanned-looking pages (random pixels, a line of text on each) made in code, run through
 * `source.upload -> op.pdf.extract-text -> sink.download` (every page's line comes back) and
 * `source.upload -> op.pdf.split -> sink.zip` (a ZIP of one whole page per part). The renderers'
 * peak memory over each run (their high-water marks reset just before, where Linux lets us), and
 * the browser process's (which keeps the Blobs made in the page), are printed for the record,
 * never asserted: a CI machine differs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainOf } from "@vektor/shared/workflows/testing";
import { writeImagePdf } from "@vektor/wasm-tools/testing/big-pdf";
import { unzipSync } from "fflate";
import { PDFDocument } from "pdf-lib";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { chromiumPids, processMemory, rendererMemory, requireWebBuild, resetPeak } from "./support/web";

const SIZE_MB = Number(process.env.E2E_WF_MEMORY_MB ?? 64);
const PAGE_MB = 8;
const PAGES = Math.max(2, Math.round(SIZE_MB / PAGE_MB));
const dir = mkdtempSync(join(tmpdir(), "workflow-device-memory-e2e-"));
const bigPdf = join(dir, "scans.pdf");

let srv: TestServer;
let browser: Browser;
let page: Page;
let textFlow = "";
let splitFlow = "";
let bigSize = 0;

const line = (n: number) => `Scanned page ${n}`;
const dialog = () => page.getByRole("dialog", { name: /^Run / });

/**
 * Sets the renderers' and the browser process's peak RSS (VmHWM) back to what they hold now (`5` in
 * /proc/<pid>/clear_refs), so the next figures are one run's peak, not the spec's; answers whether
 * it could (Linux, same user).
 */
async function resetPeaks(): Promise<boolean> {
  try {
    for (const pid of [...(await chromiumPids(browser, "renderer")), ...(await chromiumPids(browser, "browser"))]) resetPeak(pid);
    return true;
  } catch {
    return false;
  }
}

/** The browser process's peak and current RSS in MB: where Chromium keeps Blobs made in the page (until it moves them to disk). */
async function browserProcessMemory(): Promise<string> {
  const [pid] = await chromiumPids(browser, "browser");
  return pid === undefined ? "not listed" : processMemory(pid);
}

/** Opens the saved workflow's run dialog, picks `path` on this device and runs it to the end; answers how long it took, in s. */
async function runOnThisDevice(workflowId: string, name: string, path: string): Promise<number> {
  await page.goto(`${srv.url}/workflows/${workflowId}`);
  await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const thisDevice = dialog().getByRole("group", { name: "Run on" }).getByRole("radio", { name: "This device" });
  await thisDevice.waitFor();
  await dialog().getByLabel("Files", { exact: true }).setInputFiles(path);
  // The choice is made again for the picked file's size: this device still has the memory for it.
  expect(await thisDevice.isChecked()).toBe(true);
  const started = performance.now();
  await dialog().getByRole("button", { name: "Start run" }).click();
  await dialog().getByRole("status").filter({ hasText: /^(Done|The run)/ }).waitFor({ timeout: 600_000 });
  expect(await dialog().getByRole("status").first().textContent()).toMatch(/^Done on this device in [\d.]+ m?s: 1 file ready to download\.$/);
  // The results are shown (Download all writes its ZIP only when asked for).
  await dialog().getByRole("button", { name: "Download all" }).waitFor({ timeout: 120_000 });
  return (performance.now() - started) / 1000;
}

/** Runs the big PDF through `workflowId` and prints the renderer's (and the browser process's) peak over the run. */
async function measuredRun(workflowId: string, name: string): Promise<void> {
  const reset = await resetPeaks();
  const before = [await rendererMemory(browser), await browserProcessMemory()];
  const seconds = await runOnThisDevice(workflowId, name, bigPdf);
  const after = [await rendererMemory(browser), await browserProcessMemory()];
  const peak = reset ? "peaks since just before the run" : "peaks since the browser started (could not reset them)";
  console.log(
    `[workflow-device-memory] ${name}, ${(bigSize / 2 ** 20).toFixed(1)} MB PDF of ${PAGES} pages, ${seconds.toFixed(1)} s (${peak}):\n` +
      `  renderers before: ${before[0]}\n  renderers after:  ${after[0]}\n  browser process before: ${before[1]}; after: ${after[1]}`,
  );
}

async function download(name: string): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([page.waitForEvent("download"), dialog().getByRole("link", { name }).click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync(await file.path())) };
}

const stepsSaid = () => dialog().getByRole("list", { name: "Steps" }).getByRole("listitem").allTextContents();

beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer();
  const api = await srv.user();
  const create = async (name: string, graph: ReturnType<typeof chainOf>) => (await api.workflows.create({ name, graphJson: JSON.stringify(graph) })).id;
  textFlow = await create("Text of a big PDF", chainOf(["in", "source.upload"], ["text", "op.pdf.extract-text", { format: "txt" }], ["out", "sink.download"]));
  splitFlow = await create("Split a big PDF", chainOf(["in", "source.upload"], ["split", "op.pdf.split"], ["zip", "sink.zip", { name: "pages" }]));
  bigSize = writeImagePdf(bigPdf, PAGES, PAGE_MB * 1024 * 1024, line);
  browser = await launchChromium();
  page = logPageErrors(await (await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } })).newPage());
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, api.email);
  // mupdf and the tool worker loaded first on a small file, so the big runs' memory is the file's alone.
  const small = join(dir, "small.pdf");
  writeFileSync(small, await makePdf(2, "Warm-up"));
  await runOnThisDevice(textFlow, "Text of a big PDF", small);
}, 180_000);

afterAll(async () => {
  await closeAll(browser, srv);
  rmSync(dir, { recursive: true, force: true });
});

describe("a big PDF through a workflow run on this device", () => {
  test(`extract-text then download: every page's line of a ${SIZE_MB} MB PDF`, async () => {
    await measuredRun(textFlow, "Text of a big PDF");
    expect(await stepsSaid()).toEqual(["Uploaded files succeeded", "Extract text from PDF succeeded", "Download succeeded"]);
    const text = await download("Download scans.txt");
    expect(text.name).toBe("scans.txt");
    expect(new TextDecoder().decode(text.bytes).split("\f").map((t) => t.trim())).toEqual(Array.from({ length: PAGES }, (_, i) => line(i + 1)));
  }, 900_000);

  test(`split then zip: one whole page per part of a ${SIZE_MB} MB PDF, in one ZIP`, async () => {
    await measuredRun(splitFlow, "Split a big PDF");
    expect(await stepsSaid()).toEqual(["Uploaded files succeeded", "Split PDF succeeded", "ZIP succeeded"]);
    const zip = await download("Download pages.zip");
    expect(zip.name).toBe("pages.zip");
    const entries = unzipSync(zip.bytes);
    expect(Object.keys(entries)).toEqual(Array.from({ length: PAGES }, (_, i) => `scans-p${i + 1}.pdf`));
    // The pages' images are random pixels: no filter shrinks them, so each part holds its page whole.
    for (const part of Object.values(entries)) expect(part.length).toBeGreaterThan(PAGE_MB * 1024 * 1024 * 0.99);
    const last = await PDFDocument.load(entries[`scans-p${PAGES}.pdf`]!);
    expect(last.getPageCount()).toBe(1);
  }, 900_000);
});
