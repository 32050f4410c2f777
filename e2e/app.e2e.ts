/**
 * The web app walked as a person would, in Debian's Chromium against the real server: the first
 * visit fetches no tool WASM and installs the service worker and manifest; sign up; convert a PDF
 * on this device; with `processing.browser_max_mb` lowered by the admin API, a bigger PDF goes to
 * the server by itself (upload, run, download); the files it left are listed; a batch over two
 * of them followed live to its ZIP; a preset saved and a batch run from it; create and revoke
 * an API token; the account's ledger; signed out, Convert still runs on this device; an admin
 * changes a setting and grants credits, which the account's balance shows. Each screen is saved as a screenshot under
 * e2e/screenshots/ (git-ignored), at desktop width and at 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import type { Browser, Page } from "playwright-core";
import { ADMIN_EMAIL, PASSWORD, startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths, signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { downloadResults, engineChosen, requireWebBuild, startTool, waitForDone } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
const EMAIL = `walker-${crypto.randomUUID().slice(0, 8)}@example.test`;

let srv: TestServer;
let browser: Browser;
let page: Page;
/** Every URL the page and its workers asked for, in order. */
const requested: string[] = [];
let firstVisitBytes = 0;

const shoot = (name: string) => shootAtTwoWidths(page, SHOTS, name);

const nav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

/** A valid PDF over `mb` MB: a few pages and an attachment of incompressible bytes. */
async function bigPdf(mb: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(2, "Big"));
  const pad = new Uint8Array(Math.ceil(mb * 1024 * 1024));
  for (let i = 0; i < pad.length; i += 65_536) crypto.getRandomValues(pad.subarray(i, i + 65_536));
  await doc.attach(pad, "pad.bin", { mimeType: "application/octet-stream" });
  return new Uint8Array(await doc.save());
}

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1100, height: 800 } });
  page = await context.newPage();
  logPageErrors(page);
  page.on("console", (msg) => {
    if (msg.type() === "error") console.log(`[browser error] ${msg.text()}`);
  });
  context.on("request", (req) => void requested.push(req.url()));
  context.on("requestfinished", (req) => {
    void req.sizes().then((s) => (firstVisitBytes += s.responseBodySize + s.responseHeadersSize), () => {});
  });
}, 120_000);

afterAll(() => closeAll(browser, srv));

describe("the web app, screen by screen", () => {
  test("first visit: the shell only, kept for offline use, installable", async () => {
    await page.goto(srv.url);
    await page.getByText("Ready to work offline.").waitFor({ timeout: 60_000 });
    await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
    expect(requested.filter((url) => /\.(wasm|data)$/.test(url))).toEqual([]);
    console.log(`first visit: ${requested.length} requests, ${(firstVisitBytes / 1024).toFixed(0)} KiB (headers and bodies)`);
    const install = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
      const manifest = link ? await (await fetch(link.href)).json() : null;
      return { scope: registration.scope, active: registration.active?.state, controlled: Boolean(navigator.serviceWorker.controller), manifest };
    });
    expect(install).toMatchObject({ scope: `${srv.url}/`, active: "activated", controlled: true });
    expect(install.manifest).toMatchObject({ name: "Vektor", display: "standalone", start_url: "/" });
    for (const name of ["Convert", "Files", "Batches", "Tokens", "Account"]) expect(await nav(name).isVisible()).toBe(true);
    expect(await nav("Admin").count()).toBe(0);
    await shoot("convert-empty");
  }, 120_000);

  test("sign up", async () => {
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await shoot("sign-in");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("button", { name: "Sign out", exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByText(EMAIL).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Convert", exact: true }).isVisible()).toBe(true);
  }, 60_000);

  test("a wrong password shows the server's message", async () => {
    const other = await browser.newPage();
    await other.goto(`${srv.url}/sign-in`);
    await other.getByLabel("Email").fill(EMAIL);
    await other.getByLabel("Password").fill("not the password");
    await other.getByRole("button", { name: "Sign in" }).click();
    const alert = other.getByRole("alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toMatch(/invalid email or password/i);
    await other.close();
  }, 60_000);

  test("convert a PDF on this device", async () => {
    await nav("Convert").click();
    await startTool(page, [{ name: "report.pdf", mime: "application/pdf", bytes: await makePdf(3, "On this device") }], "pdf.compress", { level: 9 });
    await engineChosen(page, "This device");
    await waitForDone(page, 90_000);
    expect(await page.getByRole("status").textContent()).toStartWith("Done on this device");
    const [out] = await downloadResults(page);
    expect(new TextDecoder().decode(out.bytes.subarray(0, 5))).toBe("%PDF-");
    expect(requested.some((url) => url.includes("/api/files"))).toBe(false);
    await shoot("convert-device");
  }, 120_000);

  test("a JSON result can be previewed in place", async () => {
    await startTool(page, [{ name: "facts.pdf", mime: "application/pdf", bytes: await makePdf(2, "Facts") }], "pdf.metadata", {});
    await waitForDone(page, 90_000);
    await page.getByText("Preview facts-metadata.json").click();
    const pre = page.getByRole("region", { name: "Results" }).locator("pre");
    await pre.filter({ hasText: '"pageCount"' }).waitFor({ timeout: 15_000 });
    const shown = (await pre.textContent()) ?? "";
    expect(JSON.parse(shown)).toMatchObject({ pageCount: 2 });
    expect(shown).toContain("\n  ");
    await shoot("convert-preview");
  }, 120_000);

  test("a file over processing.browser_max_mb runs on the server by itself", async () => {
    const admin = await srv.admin();
    await admin.admin.setConfig("platform_configs", { "processing.browser_max_mb": 1 });
    await page.reload();
    await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
    const big = await bigPdf(1.5);
    await page.getByLabel("Files", { exact: true }).setInputFiles([{ name: "big.pdf", mimeType: "application/pdf", buffer: Buffer.from(big) }]);
    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    await engineChosen(page, "Server");
    expect(await page.getByText("A file is over 1 MB").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Run" }).click();
    await waitForDone(page, 120_000);
    expect(await page.getByRole("status").textContent()).toStartWith("Done on the server");
    const links = page.getByRole("region", { name: "Results" }).getByRole("link", { name: /^Download / });
    expect(await links.count()).toBeGreaterThan(0);
    expect(await links.first().getAttribute("href")).toContain("/api/files/download/");
    const [out] = await downloadResults(page);
    expect(new TextDecoder().decode(out.bytes.subarray(0, 5))).toBe("%PDF-");
    await shoot("convert-server");
  }, 180_000);

  test("files: the upload and the output of the server run, several more uploaded at once", async () => {
    await nav("Files").click();
    await page.getByRole("cell", { name: "big.pdf", exact: true }).waitFor({ timeout: 15_000 });
    await page.getByLabel("Upload files").setInputFiles([
      { name: "one.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf(1, "One")) },
      { name: "two.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf(1, "Two")) },
    ]);
    await page.getByText("Uploaded").nth(1).waitFor({ timeout: 30_000 });
    await page.getByRole("cell", { name: "two.pdf", exact: true }).waitFor({ timeout: 15_000 });
    await shoot("files");
    await page.getByRole("button", { name: "Delete one.pdf" }).click();
    await page.getByRole("cell", { name: "one.pdf", exact: true }).waitFor({ state: "detached", timeout: 15_000 });
  }, 90_000);

  test("batches: files chosen, cost shown, live progress to the ZIP", async () => {
    await nav("Batches").click();
    const picker = page.getByRole("group", { name: "Files for the batch" });
    await picker.getByLabel("two.pdf", { exact: true }).check();
    await picker.getByLabel("big.pdf", { exact: true }).check();
    await page.getByLabel("Batch tool").selectOption("pdf.compress");
    await page.getByText(/ × 2 files = \d+ credits\.$/).waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Create batch" }).click();
    const zip = page.getByRole("link", { name: /^Download ZIP of / });
    await zip.waitFor({ timeout: 120_000 });
    expect(await page.getByRole("region", { name: /^Batch / }).getByText(/^Completed: 2 of 2 done\.$/).isVisible()).toBe(true);
    expect(await page.getByRole("progressbar", { name: "Batch progress" }).evaluate((el) => (el as HTMLProgressElement).value)).toBe(2);
    const [download] = await Promise.all([page.waitForEvent("download"), zip.click()]);
    const bytes = new Uint8Array(await Bun.file(await download.path()).arrayBuffer());
    expect([...bytes.subarray(0, 2)]).toEqual([0x50, 0x4b]);
    await page.getByRole("region", { name: "Your batches" }).getByText(/^Completed: 2 of 2 done\.$/).waitFor({ timeout: 15_000 });
    await shoot("batches");
  }, 180_000);

  test("batches: a preset saved, then a batch run from it to completion", async () => {
    const presetForm = page.getByRole("form", { name: "New preset" });
    await presetForm.getByLabel("Preset name", { exact: true }).fill("Compress hard");
    await presetForm.getByLabel("Preset tool", { exact: true }).selectOption("pdf.compress");
    await presetForm.getByLabel("Level", { exact: true }).fill("9");
    await presetForm.getByRole("button", { name: "Save preset" }).click();
    const presets = page.getByRole("region", { name: "Presets" });
    await presets.getByRole("cell", { name: "Compress hard", exact: true }).waitFor({ timeout: 15_000 });
    expect(await presets.getByRole("cell", { name: '{"level":9}', exact: true }).isVisible()).toBe(true);

    const batchForm = page.getByRole("form", { name: "New batch" });
    await batchForm.getByRole("group", { name: "Files for the batch" }).getByLabel("two.pdf", { exact: true }).check();
    await batchForm.getByLabel("Preset", { exact: true }).selectOption({ label: "Compress hard" });
    expect(await batchForm.getByLabel("Batch tool").count()).toBe(0);
    await batchForm.getByText(/ × 1 file = \d+ credits?\.$/).waitFor({ timeout: 15_000 });
    await batchForm.getByRole("button", { name: "Create batch" }).click();
    await page.getByRole("link", { name: "Download ZIP of Compress hard" }).waitFor({ timeout: 120_000 });
    expect(await page.getByRole("region", { name: /^Batch / }).getByText(/^Completed: 1 of 1 done\.$/).isVisible()).toBe(true);
    const list = page.getByRole("region", { name: "Your batches" });
    await list.getByRole("row").filter({ hasText: "Compress hard" }).filter({ hasText: "Completed" }).waitFor({ timeout: 15_000 });
    await shoot("batches-preset");
  }, 180_000);

  test("batches: a failed file shows its error code, Retry failed files runs it again", async () => {
    const batchForm = page.getByRole("form", { name: "New batch" });
    await batchForm.getByRole("group", { name: "Files for the batch" }).getByLabel("two.pdf", { exact: true }).check();
    await batchForm.getByLabel("Preset", { exact: true }).selectOption("");
    await batchForm.getByLabel("Batch tool").selectOption("pdf.split");
    await batchForm.getByLabel("Ranges", { exact: true }).fill("9"); // two.pdf has one page
    await batchForm.getByRole("button", { name: "Create batch" }).click();
    const failed = page.getByRole("region", { name: /^Batch / }).getByText(/^Failed: 0 of 1 done, 1 failed\.$/);
    await failed.waitFor({ timeout: 120_000 });
    expect(await page.getByRole("cell", { name: /^PARAMS_INVALID: Page range "9" goes beyond the last page/ }).isVisible()).toBe(true);
    const retried = page.waitForResponse((r) => r.url().endsWith("/retry") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Retry failed files" }).click();
    expect((await retried).status()).toBe(200);
    await page.getByRole("button", { name: "Retry failed files" }).waitFor({ timeout: 120_000 });
    await failed.waitFor({ timeout: 15_000 });
  }, 300_000);

  test("tokens: create one (shown once), then revoke it", async () => {
    await nav("Tokens").click();
    await page.getByLabel("Name", { exact: true }).fill("laptop");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = page.getByRole("textbox", { name: "Your new token" });
    await token.waitFor({ timeout: 15_000 });
    expect(await token.inputValue()).toStartWith("vk_");
    await page.getByRole("button", { name: "Revoke laptop" }).waitFor({ timeout: 15_000 });
    await shoot("tokens");
    await page.getByRole("button", { name: "Revoke laptop" }).click();
    await page.getByRole("button", { name: "Revoke laptop" }).waitFor({ state: "detached", timeout: 15_000 });
    expect(await page.getByText("No tokens.").isVisible()).toBe(true);
  }, 60_000);

  test("account: balance and ledger", async () => {
    await nav("Account").click();
    await page.getByRole("heading", { name: "Credit ledger" }).waitFor({ timeout: 15_000 });
    await page.getByRole("cell", { name: "+100" }).waitFor({ timeout: 15_000 });
    await shoot("account");
  }, 60_000);

  test("sign out: the account screens ask to sign in, Convert still works on this device", async () => {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("link", { name: "Sign in" }).first().waitFor({ timeout: 15_000 });
    await nav("Convert").click();
    await startTool(page, [{ name: "small.pdf", mime: "application/pdf", bytes: await makePdf(1, "Signed out") }], "pdf.compress", {});
    await waitForDone(page, 90_000);
    expect(await page.getByRole("radio", { name: "Server" }).isDisabled()).toBe(true);
    expect(await page.getByText("Sign in to run tools on the server.").isVisible()).toBe(true);
  }, 120_000);

  test("a browser that cannot start the tool worker converts on the server", async () => {
    const context = await browser.newContext({ serviceWorkers: "block" });
    const other = await context.newPage();
    await context.route(/\/assets\/tools\/tool\.worker-[^/]+\.js$/, (route) => route.abort());
    const user = await srv.user();
    await other.goto(`${srv.url}/sign-in`);
    await signIn(other, user.email, { exact: true, timeout: 15_000 });
    await other.getByText(/Tools cannot run in this browser/).waitFor({ timeout: 60_000 });
    await startTool(other, [{ name: "note.pdf", mime: "application/pdf", bytes: await makePdf(1, "No worker") }], "pdf.compress", {});
    await engineChosen(other, "Server");
    expect(await other.getByRole("radio", { name: "This device" }).isDisabled()).toBe(true);
    await waitForDone(other, 120_000);
    expect(await other.getByRole("status").textContent()).toStartWith("Done on the server");
    await context.close();
  }, 180_000);

  test("admin: the Admin link for admins only, a setting changed through its form", async () => {
    await page.getByRole("link", { name: "Sign in" }).first().click();
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await nav("Admin").click();
    const field = page.getByLabel("processing.browser_max_mb", { exact: false });
    await field.fill("64");
    await page.getByRole("button", { name: "Save platform configs" }).click();
    await page.getByText("Saved.").waitFor({ timeout: 15_000 });
    expect((await srv.anon().config.thresholds(["processing.browser_max_mb"]))["processing.browser_max_mb"]).toBe(64);
    await field.fill("-1");
    await page.getByRole("button", { name: "Save platform configs" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain("processing.browser_max_mb");
    await shoot("admin");
  }, 60_000);

  test("admin: credits granted to an account show in its balance", async () => {
    const grant = page.getByRole("form", { name: "Grant credits" });
    await grant.getByLabel("Account email").fill(EMAIL);
    await grant.getByLabel("Credits", { exact: false }).fill("25");
    await grant.getByRole("button", { name: "Grant credits" }).click();
    // No reason: the server's validation message, not a code.
    const alert = grant.getByRole("alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toMatch(/reason/i);
    expect(await alert.textContent()).not.toContain("VALIDATION_ERROR");
    await grant.getByLabel("Reason").fill("Thanks for testing");
    await grant.getByRole("button", { name: "Grant credits" }).click();
    const done = grant.getByText(new RegExp(`^${EMAIL} now has \\d+ credits\\.$`));
    await done.waitFor({ timeout: 15_000 });
    const balance = Number((await done.textContent())!.match(/now has (\d+)/)![1]);
    await shoot("admin-credits");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("link", { name: "Sign in" }).first().click();
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await nav("Account").click();
    const facts = page.getByRole("region", { name: "Balance" });
    await facts.getByText(String(balance), { exact: true }).waitFor({ timeout: 15_000 });
    const row = page.getByRole("region", { name: "Credit ledger" }).getByRole("row").filter({ hasText: "Thanks for testing" });
    await row.getByRole("cell", { name: "+25", exact: true }).waitFor({ timeout: 15_000 });
  }, 60_000);
});
