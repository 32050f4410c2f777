/**
 * Convert as a newcomer meets it (issue 22), in Debian's Chromium against the real server: the
 * privacy hint names where the files go with the engine in use (Server picked: uploaded); a
 * failed run followed by a new choice leaves nothing of it on screen; three PDFs at once run on
 * this device once per file, each with its own progress, and `Download all` gives a STORE ZIP of
 * the results; gis.convert offers formats by name, defaults away from the input's format and
 * never names an output like its input, and the first use of the GIS family shows its engine's
 * download (a bar, the size and what travelled compressed). Screenshots at desktop width and at 390 px under e2e/screenshots/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { PASSWORD, startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makeGeoJson, makePdf } from "./support/inputs";
import { downloadResults, engineChosen, requireWebBuild, waitForDone, type FileSpec } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
let srv: TestServer;
let browser: Browser;
let page: Page;

const hint = () => page.locator("#engine-hint").textContent();
const choose = (files: FileSpec[]) => page.getByLabel("Files", { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mime, buffer: Buffer.from(f.bytes) })));
const pdf = async (name: string, pages = 1): Promise<FileSpec> => ({ name, mime: "application/pdf", bytes: await makePdf(pages, name) });
/** The form's alert line (hidden while empty, so not found by role then). */
const alertText = () => page.locator("form [role=alert]").textContent();
const progress = () => page.getByLabel("Progress", { exact: true }).evaluate((el) => (el as HTMLProgressElement).value);

/** Full-page screenshots at the page's width and at 390 px (`-390`), where nothing may scroll sideways. */
beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  page = logPageErrors(await context.newPage());
  await page.goto(`${srv.url}/sign-in`);
  await page.getByLabel("Email").fill(`newcomer-${crypto.randomUUID().slice(0, 8)}@example.test`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: "Sign out", exact: true }).waitFor({ timeout: 30_000 });
  await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
}, 120_000);

afterAll(() => closeAll(browser, srv));

describe("Convert, as a newcomer meets it", () => {
  test("first visit: what it does, the formats by family, plain offline words, and a drop anywhere on the page", async () => {
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    logPageErrors(fresh);
    try {
      await fresh.goto(srv.url);
      await fresh.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
      const intro = fresh.getByRole("region", { name: "Work with engineering files here" });
      expect(await intro.isVisible()).toBe(true);
      const formats = intro.getByRole("definition");
      await fresh.getByRole("term").filter({ hasText: /^GIS$/ }).waitFor({ timeout: 30_000 });
      expect(await intro.getByRole("term").allTextContents()).toEqual(expect.arrayContaining(["PDF", "GIS", "Media"]));
      expect((await formats.allTextContents()).join(" ")).toContain("Shapefile (ZIP)");
      expect(await fresh.getByText(/tool families/).count()).toBe(0);
      expect(await fresh.locator("summary").filter({ hasText: /^Works offline after first use/ }).count()).toBe(1);
      await shootAtTwoWidths(fresh, SHOTS, "convert-first-visit");

      // A file dropped on the page's heading, far from the form, is chosen; the intro makes way.
      const pdfBytes = [...(await makePdf(1, "dropped"))];
      await fresh.evaluate((bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], "dropped.pdf", { type: "application/pdf" }));
        const target = document.querySelector("h1")!;
        target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
        target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
      }, pdfBytes);
      await fresh.locator("#tool-hint").filter({ hasText: "Produces:" }).waitFor({ timeout: 10_000 });
      expect(await fresh.getByRole("button", { name: "Run" }).isEnabled()).toBe(true);
      expect(await intro.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  test("the privacy hint follows the engine in use: this device, then Server picked, while and after it runs", async () => {
    await choose([await pdf("hint.pdf")]);
    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    await engineChosen(page, "This device");
    expect(await hint()).toBe("Your files stay on this device.");
    await page.getByRole("radio", { name: "Server" }).check();
    expect(await hint()).toBe("Your files are uploaded to the server and run there.");
    await page.getByRole("button", { name: "Run" }).click();
    await waitForDone(page);
    expect(await page.getByRole("status").textContent()).toStartWith("Done on the server");
    expect(await hint()).toBe("Your files are uploaded to the server and run there.");
    expect(await page.getByText("Your files stay on this device.").count()).toBe(0);
    await shootAtTwoWidths(page, SHOTS, "convert-hint-server");
    await page.getByRole("radio", { name: "This device" }).check();
    expect(await hint()).toBe("Your files stay on this device.");
  }, 120_000);

  test("a failed run, then a new choice: a clean slate (no results, failure, alert or half bar)", async () => {
    await choose([{ name: "broken.pdf", mime: "application/pdf", bytes: new TextEncoder().encode("%PDF-1.7 this is not really a PDF") }]);
    expect(await page.getByRole("region", { name: "Results" }).count()).toBe(0);
    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    await page.getByRole("button", { name: "Run" }).click();
    await page.getByRole("status").filter({ hasText: /^Failed on this device\.$/ }).waitFor({ timeout: 60_000 });
    expect(await alertText()).not.toBe("");
    await shootAtTwoWidths(page, SHOTS, "convert-failed");

    await choose([await pdf("fresh.pdf")]);
    expect(await page.getByRole("status").textContent()).toMatch(/^\d+ tools available\.$/);
    expect(await alertText()).toBe("");
    expect(await progress()).toBe(0);
    expect(await page.getByRole("region", { name: "Results" }).count()).toBe(0);
    await shootAtTwoWidths(page, SHOTS, "convert-clean-slate");
  }, 120_000);

  test("three PDFs on this device: once per file with its own progress, then Download all as a STORE ZIP", async () => {
    const files = [await pdf("alpha.pdf", 2), await pdf("beta.pdf", 3), await pdf("gamma.pdf", 1)];
    await choose(files);
    // Every tool offered takes these three files, and the default one runs.
    const offered = await page.getByLabel("Tool", { exact: true }).locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain("pdf.compress");
    expect(offered).toContain("pdf.merge");
    expect(await page.getByRole("button", { name: "Run" }).isEnabled()).toBe(true);
    expect(await alertText()).toBe("");

    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    expect(await page.locator("#tool-hint").textContent()).toContain("Runs once for each of the 3 files.");
    await engineChosen(page, "This device");
    await page.getByRole("button", { name: "Run" }).click();
    await waitForDone(page);
    expect(await page.getByRole("status").textContent()).toMatch(/^Done on this device in [\d.]+ s: 3 files ready to download\.$/);
    const units = page.getByRole("list", { name: "Files in this run" }).getByRole("listitem");
    expect(await units.allTextContents()).toEqual(files.map((f) => `${f.name}done`));
    for (const f of files) expect(await page.getByLabel(`Progress of ${f.name}`).evaluate((el) => (el as HTMLProgressElement).value)).toBe(100);

    const results = page.getByRole("region", { name: "Results" });
    for (const f of files) expect(await results.getByRole("heading", { name: `From ${f.name}` }).isVisible()).toBe(true);
    const singles = (await downloadResults(page)).filter((d) => d.name.endsWith(".pdf"));
    expect(singles).toHaveLength(3);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: /^Download all/ }).click()]);
    expect(download.suggestedFilename()).toBe("pdf-compress-results.zip");
    const zip = new Uint8Array(readFileSync(await download.path()));
    expect(zip[8] | (zip[9]! << 8)).toBe(0); // the first entry is stored, not deflated
    const entries = unzipSync(zip);
    expect(Object.keys(entries).sort()).toEqual(singles.map((d) => d.name).sort());
    for (const d of singles) expect(Bun.hash(entries[d.name]!)).toBe(Bun.hash(d.bytes));
    await shootAtTwoWidths(page, SHOTS, "convert-three-pdfs");
  }, 180_000);

  test("several files with a tool that takes them all: once over all (merge)", async () => {
    await choose([await pdf("one.pdf"), await pdf("two.pdf")]);
    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.merge");
    expect(await page.locator("#tool-hint").textContent()).toContain("Runs once over all 2 files.");
    await page.getByRole("button", { name: "Run" }).click();
    await waitForDone(page);
    expect(await page.getByRole("status").textContent()).toMatch(/: 1 file ready to download\.$/);
    expect(await page.getByRole("list", { name: "Files in this run" }).count()).toBe(0);
  }, 120_000);

  test("gis.convert: the target defaults away from the input's format, formats by their names, the output named apart", async () => {
    await choose([{ name: "places.geojson", mime: "application/geo+json", bytes: makeGeoJson() }]);
    await page.getByLabel("Tool", { exact: true }).selectOption("gis.convert");
    const target = page.getByRole("group", { name: "Options" }).getByLabel("To", { exact: true });
    const options = await target.locator("option").allTextContents();
    expect(options).toContain("Shapefile (ZIP)");
    expect(options).not.toContain("shapefile-zip");
    expect(await target.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe("GeoPackage");
    await target.selectOption({ label: "GeoJSON" });
    await page.getByRole("button", { name: "Run" }).click();
    // The family's first use: its engine's download with a bar and its size.
    await page.getByText(/^Download(ing|ed) the GIS engine \(/).waitFor({ timeout: 60_000 });
    await waitForDone(page, 120_000);
    const label = (await page.locator("label[for=engine-download]").textContent())!;
    expect(label).toMatch(/^Downloaded the GIS engine \([\d.]+ MB, [\d.]+ MB over the network\); it is kept for next time\.$/);
    const [raw, wire] = label.match(/[\d.]+ MB/g)!.map(parseFloat);
    expect(wire! / raw!).toBeLessThan(0.45);
    const bar = await page.locator("#engine-download").evaluate((el) => [(el as HTMLProgressElement).value, (el as HTMLProgressElement).max]);
    expect(bar[0]).toBe(bar[1]);
    const [out] = await downloadResults(page);
    expect(out.name).toBe("places-convert.geojson");
    await shootAtTwoWidths(page, SHOTS, "convert-gis-names");
  }, 180_000);
});
