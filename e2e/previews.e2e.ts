/**
 * The previews (issue 13, item 5) in Debian's Chromium against the real server: a GLB from the
 * BIM tools in the 3D viewer (orbited), point clouds (a LAS result, and a LAZ kept on the server
 * opened from Files), a map of a KML result, PDF page thumbnails, a PCB board SVG and a DWG drawn as SVG. Canvases
 * are read back as screenshots and must not be one flat colour; the map must show the data's
 * colour. Nothing may be fetched from anywhere but the test server, and with the network cut
 * the viewers used once still open (the service worker keeps them). A screenshot of each
 * preview is saved under e2e/screenshots/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PNG } from "pngjs";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { fixtureFile, makeGeoJson, makePdf } from "./support/inputs";
import { engineChosen, requireWebBuild, startTool, waitForDone } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
const EMAIL = `viewer-${crypto.randomUUID().slice(0, 8)}@example.test`;
/** The colour the map draws data in (MapView's INK, #1f5fbf). */
const INK = [0x1f, 0x5f, 0xbf] as const;

let srv: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Requests to anywhere but the test server (the previews must work offline). */
const foreign: string[] = [];

const shoot = (name: string) => page.screenshot({ path: join(SHOTS, `preview-${name}.png`), fullPage: true });
const nav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
const results = () => page.getByRole("region", { name: "Results" });

/** The pixels of an element as drawn on the page. */
async function pixels(target: Locator): Promise<PNG> {
  return PNG.sync.read(await target.screenshot());
}

/** Share of pixels that differ from the most common colour (the background). */
function notBackground(png: PNG): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < png.data.length; i += 4) {
    const key = png.data.readUInt32BE(i);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const most = Math.max(...counts.values());
  return 1 - most / (png.width * png.height);
}

/** Share of pixels within `tolerance` of `rgb`. */
function share(png: PNG, rgb: readonly number[], tolerance = 40): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if (rgb.every((c, k) => Math.abs(png.data[i + k]! - c) <= tolerance)) n++;
  return n / (png.width * png.height);
}

/** Polls `check` on the element's pixels until it holds (drawing is asynchronous) or the deadline passes. */
async function waitForPixels(target: Locator, check: (png: PNG) => boolean, timeoutMs = 60_000): Promise<PNG> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const png = await pixels(target);
    if (check(png)) return png;
    if (Date.now() > deadline) throw new Error(`the canvas did not draw in time (${(notBackground(png) * 100).toFixed(2)}% not background)`);
    await page.waitForTimeout(500);
  }
}

const drawn = (png: PNG) => notBackground(png) > 0.005;

/** Runs `slug` on this device and opens the preview of the result whose name matches `output`. */
async function previewResult(files: Parameters<typeof startTool>[1], slug: string, params: Record<string, unknown>, output: RegExp, timeoutMs = 120_000) {
  await nav("Convert").click();
  await startTool(page, files, slug, params);
  await engineChosen(page, "This device");
  await waitForDone(page, timeoutMs);
  await results().locator("summary").filter({ hasText: output }).first().click();
}

/** The PCB fixture board's Gerber and drill files in one ZIP. */
function boardZip(): Uint8Array {
  const dir = join(dirname(Bun.resolveSync("@tracespace/fixtures/package.json", import.meta.dir)), "boards", "arduino-uno");
  const files = Object.fromEntries(readdirSync(dir).filter((f) => f.startsWith("arduino-uno.")).map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]));
  return zipSync(files);
}

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  page = await context.newPage();
  logPageErrors(page);
  page.on("console", (msg) => {
    // Failed requests once offline are expected (the last test); anything else is news.
    if (msg.type() === "error" && !msg.text().includes("ERR_INTERNET_DISCONNECTED")) console.log(`[browser error] ${msg.text()}`);
  });
  context.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(srv.url) && !/^(blob|data):/.test(url)) foreign.push(url);
  });
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, EMAIL, { button: "Create account" });
}, 120_000);

afterAll(() => closeAll(browser, srv));

describe("previews", () => {
  test("a GLB from the BIM tools in the 3D viewer, orbited", async () => {
    await previewResult([fixtureFile("bim/example.ifc", "application/x-step-ifc")], "bim.ifc-to-glb", {}, /\.glb$/, 180_000);
    const canvas = results().getByRole("img", { name: /^3D view of / });
    await canvas.waitFor({ timeout: 60_000 });
    const before = await waitForPixels(canvas, drawn);
    // Orbit: drag across the canvas; the picture changes and still shows the model.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    const after = await waitForPixels(canvas, (png) => drawn(png) && !png.data.equals(before.data), 15_000);
    expect(drawn(after)).toBe(true);
    await canvas.scrollIntoViewIfNeeded();
    await shoot("glb");
  }, 300_000);

  test("a LAS result as a point cloud", async () => {
    await previewResult([fixtureFile("pointcloud/point-color-time.las.laz", "application/vnd.laszip")], "pointcloud.laz-to-las", {}, /\.las$/);
    const canvas = results().getByRole("img", { name: /^Point cloud of / });
    await canvas.waitFor({ timeout: 60_000 });
    await waitForPixels(canvas, drawn);
    expect(await results().getByText(/points shown/).textContent()).toMatch(/^[\d,]+ of [\d,]+ points shown/);
    await shoot("las");
  }, 300_000);

  test("a LAZ kept on the server, previewed from Files (decompressed on this device)", async () => {
    await nav("Files").click();
    const laz = fixtureFile("pointcloud/autzen_trim.laz", "application/vnd.laszip");
    await page.getByLabel("Upload files").setInputFiles([{ name: laz.name, mimeType: laz.mime, buffer: Buffer.from(laz.bytes) }]);
    await page.getByText("Uploaded", { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: `Preview ${laz.name}` }).click();
    const panel = page.getByRole("region", { name: `Preview of ${laz.name}` });
    const canvas = panel.getByRole("img", { name: `Point cloud of ${laz.name}` });
    await canvas.waitFor({ timeout: 120_000 });
    await waitForPixels(canvas, drawn);
    // autzen_trim has 110,000 points: under the cap, every one is shown.
    expect(await panel.getByText(/points shown/).textContent()).toMatch(/^110,000 of 110,000 points shown/);
    await canvas.scrollIntoViewIfNeeded();
    await shoot("laz-files");
    await panel.getByRole("button", { name: "Close preview" }).click();
  }, 300_000);

  test("a KML result on a map (converted to GeoJSON on this device)", async () => {
    const geojson = { name: "places.geojson", mime: "application/geo+json", bytes: makeGeoJson() };
    await previewResult([geojson], "gis.convert", { to: "kml" }, /\.kml$/, 180_000);
    const map = results().locator(".viewer-canvas canvas");
    await map.waitFor({ timeout: 120_000 });
    expect(await map.getAttribute("aria-label")).toMatch(/^Map of .*\.kml$/);
    // The polygon and the three points are drawn in the data's colour over the plain background.
    await waitForPixels(map, (png) => share(png, INK) > 0.0005);
    expect(await results().getByText(/^4 features\./).isVisible()).toBe(true);
    await map.scrollIntoViewIfNeeded();
    await shoot("map");
  }, 300_000);

  test("PDF page thumbnails, rendered on this device", async () => {
    await previewResult([{ name: "pages.pdf", mime: "application/pdf", bytes: await makePdf(3, "Thumbnails") }], "pdf.compress", {}, /\.pdf$/);
    const list = results().getByRole("list", { name: /^Pages of / });
    await list.waitFor({ timeout: 120_000 });
    const images = list.getByRole("img");
    expect(await images.count()).toBe(3);
    const sizes = await images.evaluateAll((els) => Promise.all(els.map(async (img) => (await (img as HTMLImageElement).decode(), [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]))));
    for (const [w, h] of sizes) {
      expect(w).toBeGreaterThan(0);
      expect(h).toBeGreaterThan(w!); // A4 portrait
    }
    await shoot("pdf");
  }, 300_000);

  test("a PCB board SVG shown as an image, not as markup", async () => {
    await previewResult([{ name: "arduino-uno.zip", mime: "application/zip", bytes: boardZip() }], "pcb.render-board", {}, /\.svg$/, 180_000);
    const image = results().getByRole("img", { name: /^Drawing of .*\.svg$/ });
    await image.waitFor({ timeout: 60_000 });
    const [w, h, src] = await image.evaluate(async (img: HTMLImageElement) => (await img.decode(), [img.naturalWidth, img.naturalHeight, img.src] as const));
    expect(w).toBeGreaterThan(0);
    expect(h).toBeGreaterThan(0);
    expect(src).toStartWith("blob:");
    expect(await results().locator("svg").count()).toBe(0);
    await waitForPixels(image, drawn);
    await shoot("pcb");
  }, 300_000);

  test("a DWG drawn as SVG on this device, shown in the same SVG view (issue 23)", async () => {
    await previewResult([fixtureFile("drawing/example_2018.dwg", "image/vnd.dwg")], "drawing.to-svg", {}, /\.svg$/, 180_000);
    const image = results().getByRole("img", { name: /^Drawing of example_2018\.svg$/ });
    await image.waitFor({ timeout: 60_000 });
    const [w, h] = await image.evaluate(async (img: HTMLImageElement) => (await img.decode(), [img.naturalWidth, img.naturalHeight] as const));
    // The drawing is wider than tall: the SVG keeps its proportions at 1000 px on the long side.
    expect(w).toBe(1000);
    expect(h).toBeGreaterThan(0);
    expect(h).toBeLessThan(w);
    await waitForPixels(image, drawn);
    await shoot("drawing");
  }, 300_000);

  test("a DXF kept on the server, previewed from Files (drawn as SVG on this device)", async () => {
    await nav("Files").click();
    const dxf = fixtureFile("drawing/sample_r14.dxf", "image/vnd.dxf");
    await page.getByLabel("Upload files").setInputFiles([{ name: dxf.name, mimeType: dxf.mime, buffer: Buffer.from(dxf.bytes) }]);
    await page.getByText("Uploaded", { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: `Preview ${dxf.name}` }).click();
    const panel = page.getByRole("region", { name: `Preview of ${dxf.name}` });
    const image = panel.getByRole("img", { name: `Drawing of ${dxf.name}` });
    await image.waitFor({ timeout: 120_000 });
    const [w, h, src] = await image.evaluate(async (img: HTMLImageElement) => (await img.decode(), [img.naturalWidth, img.naturalHeight, img.src] as const));
    expect(w).toBeGreaterThan(0);
    expect(h).toBeGreaterThan(0);
    expect(src).toStartWith("blob:");
    await waitForPixels(image, drawn);
    await shoot("dxf-files");
    await panel.getByRole("button", { name: "Close preview" }).click();
  }, 300_000);

  test("nothing was fetched from outside the server", () => {
    expect(foreign).toEqual([]);
  });

  test("offline, the viewers used once still work (3D and map)", async () => {
    await context.setOffline(true);
    await page.reload();
    await page.getByText(/^You are offline\./).waitFor({ timeout: 30_000 });
    await previewResult([fixtureFile("bim/example.ifc", "application/x-step-ifc")], "bim.ifc-to-glb", {}, /\.glb$/, 180_000);
    await waitForPixels(results().getByRole("img", { name: /^3D view of / }), drawn);
    const geojson = { name: "places.geojson", mime: "application/geo+json", bytes: makeGeoJson() };
    await previewResult([geojson], "gis.convert", { to: "kml" }, /\.kml$/, 180_000);
    const map = results().locator(".viewer-canvas canvas");
    await map.waitFor({ timeout: 120_000 });
    await waitForPixels(map, (png) => share(png, INK) > 0.0005);
    await shoot("map-offline");
    await context.setOffline(false);
  }, 300_000);
});
