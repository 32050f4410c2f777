/**
 * Every registered tool family runs in the browser with the network cut. The page loads from
 * the real server and keeps its shell for offline use; each family's tool is run once online
 * (which is what keeps that family's worker code and WASM in the service worker's cache: nothing
 * of a family is fetched before it is used). Then the browser goes offline and the server stops,
 * the page reloads from the cache, and one tool per family runs again in the Web Worker through
 * the UI. Each download must equal what the server produced for the same inputs and params
 * through the API: the same bytes for deterministic tools, else the same structure. One row per
 * tool below; a family that is registered without a row fails the coverage test.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ToolFamily } from "@vektor/shared/tools/manifest";
import { listManifests } from "@vektor/wasm-tools";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { launchChromium, logPageErrors } from "./support/browser";
import { fixtureFile, makeGeoJson, makePdf, makeWav, packageFile } from "./support/inputs";
import { runOnServer } from "./support/server";
import { downloadResults, requireWebBuild, startTool, waitForDone, type Download, type FileSpec } from "./support/web";

interface Row {
  family: ToolFamily;
  slug: string;
  files: () => Promise<FileSpec[]>;
  params: Record<string, unknown>;
  /** `bytes`: deterministic tools; a function: the structural check for the others. */
  same: "bytes" | ((browser: Download, server: Download) => void);
}

const ROWS: Row[] = [
  {
    family: "pdf",
    slug: "pdf.compress",
    files: async () => [{ name: "report.pdf", mime: "application/pdf", bytes: await makePdf(3, "Offline compress") }],
    params: { level: 9 },
    same: "bytes",
  },
  {
    family: "pdf",
    slug: "pdf.merge",
    files: async () => [
      { name: "a.pdf", mime: "application/pdf", bytes: await makePdf(2, "First") },
      { name: "b.pdf", mime: "application/pdf", bytes: await makePdf(1, "Second") },
    ],
    params: {},
    same: "bytes",
  },
  {
    family: "pointcloud",
    slug: "pointcloud.laz-to-las",
    files: async () => [fixtureFile("pointcloud/autzen_trim.laz", "application/vnd.laszip")],
    params: {},
    same: "bytes",
  },
  {
    family: "cad",
    slug: "cad.info",
    files: async () => [packageFile("occt-import-js", "test/testfiles/simple-basic-cube/cube.stp", "model/step")],
    params: {},
    same: "bytes",
  },
  {
    family: "gis",
    slug: "gis.info",
    files: async () => [{ name: "places.geojson", mime: "application/geo+json", bytes: makeGeoJson() }],
    params: {},
    same: "bytes",
  },
  {
    family: "pcb",
    slug: "pcb.info",
    files: async () => [packageFile("@tracespace/fixtures", "boards/arduino-uno/arduino-uno.cmp", "application/vnd.gerber")],
    params: {},
    same: "bytes",
  },
  {
    family: "bim",
    slug: "bim.ifc-info",
    files: async () => [fixtureFile("bim/example.ifc", "application/x-step-ifc")],
    params: {},
    same: "bytes",
  },
  {
    family: "drawing",
    slug: "drawing.info",
    files: async () => [fixtureFile("drawing/example_2018.dwg", "image/vnd.dwg")],
    params: {},
    same: "bytes",
  },
  {
    family: "drawing",
    slug: "drawing.to-svg",
    files: async () => [fixtureFile("drawing/sample_2018.dwg", "image/vnd.dwg")],
    params: {},
    same: "bytes",
  },
  {
    family: "drawing",
    slug: "drawing.to-geojson",
    files: async () => [fixtureFile("drawing/example_2018.dxf", "image/vnd.dxf")],
    params: {},
    // Arcs are sampled with Math.sin/cos, whose last bit may differ between JavaScript engines:
    // the same features and properties, coordinates equal to 1e-9 of the drawing's size.
    same: (browser, server) => {
      type Collection = { features: { properties: unknown; geometry: { type: string; coordinates?: unknown } }[] };
      const [b, s] = [browser, server].map((d) => JSON.parse(new TextDecoder().decode(d.bytes)) as Collection);
      expect(b.features.map((f) => [f.properties, f.geometry.type])).toEqual(s.features.map((f) => [f.properties, f.geometry.type]));
      const numbers = (c: Collection) => JSON.stringify(c.features.map((f) => f.geometry)).match(/-?\d+(\.\d+)?(e[-+]?\d+)?/g)!.map(Number);
      const [nb, ns] = [numbers(b), numbers(s)];
      expect(nb.length).toBe(ns.length);
      nb.forEach((v, i) => expect(Math.abs(v - ns[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(ns[i])) + 1e-6));
    },
  },
  {
    family: "drawing",
    slug: "drawing.to-pdf",
    files: async () => [fixtureFile("drawing/sample_r14.dxf", "image/vnd.dxf")],
    params: { paper: "A3" },
    // Coordinates may differ in the last printed digit between engines (sin/cos): both PDFs, of about one size.
    same: (browser, server) => {
      for (const pdf of [browser, server]) expect(new TextDecoder("latin1").decode(pdf.bytes.subarray(0, 8))).toBe("%PDF-1.7");
      expect(Math.abs(browser.bytes.length - server.bytes.length)).toBeLessThan(server.bytes.length * 0.01);
    },
  },
  {
    family: "drawing",
    slug: "drawing.to-dxf",
    files: async () => [fixtureFile("drawing/sample_2018.dwg", "image/vnd.dwg")],
    params: {},
    same: "bytes",
  },
  {
    family: "mesh",
    slug: "mesh.info",
    files: async () => [packageFile("occt-import-js", "test/testfiles/cube-10x10mm/Cube 10x10.stl", "model/stl")],
    params: {},
    same: "bytes",
  },
  {
    family: "mesh",
    slug: "mesh.convert",
    files: async () => [packageFile("occt-import-js", "test/testfiles/cube-10x10mm/Cube 10x10.stl", "model/stl")],
    params: { to: "glb" },
    same: "bytes",
  },
  {
    family: "media",
    slug: "media.transcode",
    files: async () => [{ name: "tone.wav", mime: "audio/wav", bytes: makeWav(1) }],
    params: { to: "mp3" },
    same: "bytes",
  },
];

const registered = new Set(listManifests().map((m) => m.slug));
const families = new Set(listManifests().map((m) => m.family));
const active = ROWS.filter((row) => registered.has(row.slug));

let srv: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const inputs = new Map<string, FileSpec[]>();
const serverOutputs = new Map<string, Download[]>();

/** How many tool families the page says are available offline. */
const offlineCount = async () => {
  const list = page.getByRole("list", { name: "Families kept offline", includeHidden: true });
  await list.waitFor({ state: "attached", timeout: 30_000 });
  return list.getByText(/: available offline$/).count();
};

beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer();
  // The server's outputs first: once the browser is offline, the server is stopped.
  const client = await srv.user();
  for (const row of active) {
    const files = await row.files();
    inputs.set(row.slug, files);
    serverOutputs.set(row.slug, await runOnServer(client, row.slug, files, row.params));
  }
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  page.on("console", (msg) => {
    // A failed request once offline is what "the network is cut" expects; anything else is news.
    if ((msg.type() === "error" || msg.type() === "warning") && !msg.text().includes("ERR_INTERNET_DISCONNECTED")) console.log(`[browser ${msg.type()}] ${msg.text()}`);
  });
  logPageErrors(page);
  await page.goto(srv.url);
  await page.getByText("Ready to work offline.").waitFor({ timeout: 60_000 });
  await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
  // Use every family once while online (one tool each): that is what keeps it, all its tools
  // included, for offline use. Nothing of a family is cached before.
  expect(await offlineCount()).toBe(0);
  for (const family of families) {
    const row = active.find((r) => r.family === family)!;
    await startTool(page, inputs.get(row.slug)!, row.slug, row.params);
    await waitForDone(page, 90_000);
  }
  await page.waitForFunction((want) => [...document.querySelectorAll("[aria-label='Families kept offline'] li")].filter((li) => li.textContent!.endsWith("available offline")).length === want, families.size, { timeout: 120_000 });
  await context.setOffline(true);
  await srv.close();
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

describe("tools in the browser, offline", () => {
  test("every registered family has a row", () => {
    const covered = new Set(active.map((row) => row.family));
    expect([...families].filter((f) => !covered.has(f))).toEqual([]);
  });

  test("the network is cut", async () => {
    const answer = await page.evaluate(() => fetch("/api/health").then(() => "reached", () => "unreachable"));
    expect(answer).toBe("unreachable");
  });

  test("the page reloads from the service worker's cache", async () => {
    await page.reload();
    await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("heading", { name: "Convert", exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(/^You are offline\./).isVisible()).toBe(true);
    expect(await offlineCount()).toBe(families.size);
  });

  for (const row of ROWS) {
    test.skipIf(!registered.has(row.slug))(`${row.family}: ${row.slug} gives what the server gives`, async () => {
      await startTool(page, inputs.get(row.slug)!, row.slug, row.params);
      await waitForDone(page);
      expect(await page.getByRole("status").textContent()).toStartWith("Done on this device");
      expect(await page.getByLabel("Progress").evaluate((el) => (el as HTMLProgressElement).value)).toBe(100);
      const got = await downloadResults(page);
      const want = serverOutputs.get(row.slug)!;
      expect(got.map((d) => d.name)).toEqual(want.map((d) => d.name));
      got.forEach((download, i) => {
        if (row.same === "bytes") {
          expect(download.bytes.length).toBe(want[i].bytes.length);
          expect(Bun.hash(download.bytes)).toBe(Bun.hash(want[i].bytes));
        } else row.same(download, want[i]);
      });
    }, 90_000);
  }

  test("a run shows progress and can be cancelled; the tool works again afterwards", async () => {
    const long = { name: "long.pdf", mime: "application/pdf", bytes: await makePdf(60, "Long") };
    await startTool(page, [long], "pdf.render-png", { dpi: 300 });
    await page.getByRole("status").filter({ hasText: /: page \d+$/ }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("status").filter({ hasText: "Cancelled." }).waitFor({ timeout: 10_000 });
    const progress = await page.getByLabel("Progress").evaluate((el) => (el as HTMLProgressElement).value);
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(100);
    expect(await page.getByRole("button", { name: "Run" }).isEnabled()).toBe(true);

    await startTool(page, [{ name: "short.pdf", mime: "application/pdf", bytes: await makePdf(1, "Short") }], "pdf.render-png", { dpi: 72 });
    await waitForDone(page);
    const [png] = await downloadResults(page);
    expect(png.name).toBe("short-p1.png");
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  }, 90_000);
});
