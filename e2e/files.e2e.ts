/**
 * Files as a person with many files uses it (issue 22, item 6), in Debian's Chromium against the
 * real server: each output says what made it (the tool, by its title, and the file it was made
 * from); the search asks the server and pages; files chosen across pages are deleted together
 * after a confirmation; "Run a tool on these" opens Convert with them chosen, and a server run
 * there sends none of them again (nor a local file whose bytes and name the account already has);
 * a preview opens right under its row and takes the focus. Screenshots at 1280 and 390 px under
 * e2e/screenshots/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { VektorClient } from "@vektor/shared/client";
import type { Browser, Page } from "playwright-core";
import { PASSWORD, startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths, signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { engineChosen, requireWebBuild, waitForDone } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
let srv: TestServer;
let browser: Browser;
let page: Page;
let api: VektorClient;
const SHEETS = 22;
/** The compressed Site plan A, named by the server. */
let outputName = "";
const elevation = await makePdf(1, "elevation");

const nav = (name: string) => page.getByRole("navigation").getByRole("link", { name, exact: true });
const row = (name: string) => page.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
const box = (name: string) => page.getByRole("checkbox", { name: `Choose ${name}`, exact: true });
const search = (text: string) => page.getByLabel("Search by name").fill(text);
const named = async (filename: string) => (await api.files.list({ q: filename, limit: 200 })).items.filter((f) => f.filename === filename);
const upload = (bytes: Uint8Array, filename: string) => api.files.upload(new Blob([bytes as Uint8Array<ArrayBuffer>]), { filename, mime: "application/pdf" });
/** The choice boxes of the table's rows (not the page's "Choose all"). */
const rowBoxes = (name: RegExp) => page.getByRole("table").getByRole("checkbox", { name });

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  const email = `files-${crypto.randomUUID().slice(0, 8)}@example.test`;
  api = srv.anon();
  await api.auth.signUp({ name: "files", email, password: PASSWORD });
  const plan = await upload(await makePdf(2, "plan A"), "Site plan A.pdf");
  await upload(await makePdf(1, "plan B"), "site plan B.pdf");
  await upload(elevation, "elevation.pdf");
  for (let i = 1; i <= SHEETS; i++) await upload(await makePdf(1, `sheet ${i}`), `sheet-${String(i).padStart(2, "0")}.pdf`);
  const job = await api.tools.run("pdf.compress", [plan.fileId]);
  expect(job.status).toBe("succeeded");
  outputName = job.outputs[0]!.filename;
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  page = logPageErrors(await context.newPage());
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, email);
}, 180_000);

afterAll(() => closeAll(browser, srv));

describe("Files with many files", () => {
  test("an output says which tool made it from which file; statuses are words", async () => {
    await nav("Files").click();
    const output = row(outputName);
    await output.waitFor({ timeout: 15_000 });
    await output.getByText("Compress PDF, made from Site plan A.pdf").waitFor({ timeout: 15_000 });
    expect(await output.getByRole("cell", { name: "Ready", exact: true }).count()).toBe(1);
    expect(await page.getByRole("cell", { name: "UPLOADED", exact: true }).count()).toBe(0);
    expect(await row("sheet-22.pdf").getByText("Your upload").count()).toBe(1);
    await shootAtTwoWidths(page, SHOTS, "files-list");
  }, 60_000);

  test("search asks the server: names containing the text, any case, and none found says so", async () => {
    await search("PLAN");
    await page.getByRole("cell", { name: "sheet-22.pdf", exact: true }).waitFor({ state: "detached", timeout: 15_000 });
    await box("site plan B.pdf").waitFor({ timeout: 15_000 });
    expect(await rowBoxes(/^Choose /).count()).toBe(3);
    for (const name of ["Site plan A.pdf", "site plan B.pdf", outputName]) expect(await box(name).count()).toBe(1);
    await search("no such drawing");
    await page.getByText('No file\'s name contains "no such drawing".').waitFor({ timeout: 15_000 });
    await search("");
    await page.getByRole("cell", { name: "sheet-22.pdf", exact: true }).waitFor({ timeout: 15_000 });
  }, 60_000);

  test("files chosen across pages are deleted together, after a confirmation that names them", async () => {
    await search("sheet");
    // The search's answer is in when the output (not a sheet) has left the page.
    await box(outputName).waitFor({ state: "detached", timeout: 15_000 });
    await box("sheet-22.pdf").waitFor({ timeout: 15_000 });
    await page.getByLabel("Choose all on this page").check();
    await page.getByRole("button", { name: "Next page" }).click();
    await box("sheet-02.pdf").check();
    const bar = page.getByRole("region", { name: "Chosen files" });
    await bar.getByText("21 files chosen").waitFor();
    await shootAtTwoWidths(page, SHOTS, "files-chosen");
    await bar.getByRole("button", { name: "Delete chosen" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 21 files?" });
    await dialog.waitFor();
    expect(await dialog.getByRole("listitem").count()).toBe(21);
    // The safe answer has the focus.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Keep them");
    await dialog.getByRole("button", { name: "Delete all 21" }).click();
    await dialog.waitFor({ state: "detached", timeout: 30_000 });
    await bar.waitFor({ state: "detached" });
    const left = (await api.files.list({ q: "sheet", limit: 200 })).items.map((f) => f.filename);
    expect(left).toEqual(["sheet-01.pdf"]);
    await box("sheet-01.pdf").waitFor({ timeout: 15_000 });
    expect(await rowBoxes(/^Choose sheet-/).count()).toBe(1);
    await search("");
  }, 90_000);

  test("a preview opens right under its row, in view and focused", async () => {
    await page.setViewportSize({ width: 1280, height: 600 });
    const name = "site plan B.pdf";
    await row(name).getByRole("button", { name: `Preview ${name}` }).click();
    const panel = page.getByRole("region", { name: `Preview of ${name}` });
    await panel.waitFor({ timeout: 15_000 });
    expect(await panel.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await panel.evaluate((el) => el.closest("tr")?.previousElementSibling?.textContent?.includes("site plan B.pdf"))).toBe(true);
    const top = (await panel.boundingBox())!.y;
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(600);
    await shootAtTwoWidths(page, SHOTS, "files-preview");
    await panel.getByRole("button", { name: "Close preview" }).click();
    await panel.waitFor({ state: "detached" });
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 60_000);

  test("Run a tool on these: Convert with them chosen; a server run stores no input again", async () => {
    await box("site plan B.pdf").check();
    await box("elevation.pdf").check();
    await page.getByRole("button", { name: "Run a tool on these" }).click();
    await page.getByRole("heading", { name: "Convert", exact: true }).waitFor();
    await page.locator("#files-hint").filter({ hasText: "Chosen: site plan B.pdf, elevation.pdf." }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).search).toBe("");
    await page.getByRole("radio", { name: "Server" }).check();
    await engineChosen(page, "Server");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await waitForDone(page, 120_000);
    expect(await named("site plan B.pdf")).toHaveLength(1);
    expect(await named("elevation.pdf")).toHaveLength(1);
    await shootAtTwoWidths(page, SHOTS, "files-run-on-convert");

    // The same bytes under the same name, chosen from this device: found by checksum, not sent again.
    await page.getByLabel("Files", { exact: true }).setInputFiles([{ name: "elevation.pdf", mimeType: "application/pdf", buffer: Buffer.from(elevation) }]);
    await page.getByRole("radio", { name: "Server" }).check();
    await engineChosen(page, "Server");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await waitForDone(page, 120_000);
    expect(await named("elevation.pdf")).toHaveLength(1);
    // Other bytes under that name are a new file.
    await page.getByLabel("Files", { exact: true }).setInputFiles([{ name: "elevation.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf(2, "elevation, revised")) }]);
    await page.getByRole("radio", { name: "Server" }).check();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await waitForDone(page, 120_000);
    expect(await named("elevation.pdf")).toHaveLength(2);
  }, 300_000);
});
