/**
 * The web app measured in Debian's Chromium (playwright-core, as the e2e specs drive it) against
 * a started server on 127.0.0.1: what the first visit fetches, and the time to the first result
 * of one tool per family on this device (cold and warm) beside the same tool through the server.
 */
import type { VektorClient } from "@vektor/shared/client";
import { launchChromium } from "../../e2e/support/browser";
import { fixtureFile, makeGeoJson, makePdf, makeWav, packageFile } from "../../e2e/support/inputs";
import { runOnServer } from "../../e2e/support/server";
import { fillParams, waitForDone, type FileSpec } from "../../e2e/support/web";

// playwright-core is the e2e workspace's dependency; its types are reached through that helper.
type Browser = Awaited<ReturnType<typeof launchChromium>>;
type BrowserContext = Awaited<ReturnType<Browser["newContext"]>>;
type Page = Awaited<ReturnType<BrowserContext["newPage"]>>;

/** One representative tool per family, with a real input (the same rows as e2e/tools-offline.e2e.ts). */
export interface FamilyRow {
  family: string;
  slug: string;
  files: () => Promise<FileSpec[]>;
  params: Record<string, unknown>;
}

export const FAMILY_ROWS: FamilyRow[] = [
  { family: "pdf", slug: "pdf.compress", files: async () => [{ name: "report.pdf", mime: "application/pdf", bytes: await makePdf(3, "Bench") }], params: { level: 9 } },
  { family: "pointcloud", slug: "pointcloud.laz-to-las", files: async () => [fixtureFile("pointcloud/autzen_trim.laz", "application/vnd.laszip")], params: {} },
  { family: "cad", slug: "cad.info", files: async () => [packageFile("occt-import-js", "test/testfiles/simple-basic-cube/cube.stp", "model/step")], params: {} },
  { family: "gis", slug: "gis.info", files: async () => [{ name: "places.geojson", mime: "application/geo+json", bytes: makeGeoJson() }], params: {} },
  { family: "pcb", slug: "pcb.info", files: async () => [packageFile("@tracespace/fixtures", "boards/arduino-uno/arduino-uno.cmp", "application/vnd.gerber")], params: {} },
  { family: "bim", slug: "bim.ifc-info", files: async () => [fixtureFile("bim/example.ifc", "application/x-step-ifc")], params: {} },
  { family: "media", slug: "media.transcode", files: async () => [{ name: "tone.wav", mime: "audio/wav", bytes: makeWav(1) }], params: { to: "mp3" } },
];

export interface FirstVisit {
  requests: number;
  /** Response headers and bodies as they came over the wire (encoded), service worker fetches included. */
  bytes: number;
  wasmFiles: number;
  wasmBytes: number;
}

export interface FamilyTimes {
  row: FamilyRow;
  inputBytes: number;
  deviceColdMs: number;
  deviceWarmMs: number;
  serverColdMs: number;
  serverWarmMs: number;
}

const isWasm = (url: string) => /\.(wasm|data)(\?|$)/.test(url);

/**
 * Counts what reaches the browser over the network in `context`. Answers served by the service
 * worker are skipped: the worker's own fetch of the same file is counted once already.
 */
function meter(context: BrowserContext): FirstVisit & { settle: () => Promise<void> } {
  const m = { requests: 0, bytes: 0, wasmFiles: 0, wasmBytes: 0 };
  const pending: Promise<void>[] = [];
  context.on("requestfinished", (req) => {
    pending.push(
      (async () => {
        const res = await req.response();
        if (res?.fromServiceWorker()) return;
        const sizes = await req.sizes();
        const n = sizes.responseBodySize + sizes.responseHeadersSize;
        m.requests++;
        m.bytes += n;
        if (!isWasm(req.url())) return;
        m.wasmFiles++;
        m.wasmBytes += n;
      })().catch(() => {}),
    );
  });
  return Object.assign(m, { settle: () => Promise.all(pending).then(() => {}) });
}

/** Opens the app and waits until the shell is kept offline and the tool list is in. */
async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByText("Ready to work offline.").waitFor({ timeout: 60_000 });
  await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 60_000 });
}

/** The first visit in a fresh profile: the shell only, no tool WASM. */
export async function firstVisit(browser: Browser, url: string): Promise<FirstVisit> {
  const context = await browser.newContext();
  const m = meter(context);
  const page = await context.newPage();
  await openApp(page, url);
  await page.waitForLoadState("networkidle");
  await m.settle();
  await context.close();
  return { requests: m.requests, bytes: m.bytes, wasmFiles: m.wasmFiles, wasmBytes: m.wasmBytes };
}

/** Milliseconds from pressing Run to "Done on this device" (files and options set before). */
async function runOnDevice(page: Page, row: FamilyRow, files: FileSpec[]): Promise<number> {
  await page.getByLabel("Files", { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mime, buffer: Buffer.from(f.bytes) })));
  await page.getByLabel("Tool", { exact: true }).selectOption(row.slug);
  await fillParams(page, row.params);
  const t0 = performance.now();
  await page.getByRole("button", { name: "Run" }).click();
  await waitForDone(page, 300_000);
  const ms = performance.now() - t0;
  const status = (await page.getByRole("status").textContent()) ?? "";
  if (!status.startsWith("Done on this device")) throw new Error(`${row.slug} did not run on this device: ${status}`);
  return ms;
}

/** Cold: a fresh profile, the family never used (its worker code and WASM fetched). Warm: the next run in the same page. */
async function deviceTimes(browser: Browser, url: string, row: FamilyRow, files: FileSpec[]): Promise<[number, number]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await openApp(page, url);
    const cold = await runOnDevice(page, row, files);
    return [cold, await runOnDevice(page, row, files)];
  } finally {
    await context.close();
  }
}

/** Upload, run and download through the official client; the first run is the server's cold one. */
async function serverTimes(client: VektorClient, row: FamilyRow, files: FileSpec[]): Promise<[number, number]> {
  const once = async () => {
    const t0 = performance.now();
    await runOnServer(client, row.slug, files, row.params);
    return performance.now() - t0;
  };
  const cold = await once();
  return [cold, await once()];
}

export async function measureWeb(url: string, client: VektorClient, families: string[]): Promise<{ visit: FirstVisit; times: FamilyTimes[] }> {
  const browser = await launchChromium();
  try {
    const visit = await firstVisit(browser, url);
    const times: FamilyTimes[] = [];
    for (const row of FAMILY_ROWS.filter((r) => families.includes(r.family))) {
      const files = await row.files();
      const [deviceColdMs, deviceWarmMs] = await deviceTimes(browser, url, row, files);
      const [serverColdMs, serverWarmMs] = await serverTimes(client, row, files);
      times.push({ row, inputBytes: files.reduce((n, f) => n + f.bytes.length, 0), deviceColdMs, deviceWarmMs, serverColdMs, serverWarmMs });
    }
    return { visit, times };
  } finally {
    await browser.close();
  }
}
