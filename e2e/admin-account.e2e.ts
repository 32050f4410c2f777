/**
 * Admin and account in plain words in Debian's Chromium against the real server (issue 22,
 * item 11): each setting labelled with its description, its unit beside the field and its range
 * and default under it; a value out of range refused in one sentence (and not saved), as is a
 * grant the server refuses for its shape (no schema paths); the credit
 * ledger's reasons in words, a batch's charge linked to that batch; Convert's Server choice
 * saying a run costs no credits. Screens at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths, signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { engineChosen, requireWebBuild } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");

let srv: TestServer;
let browser: Browser;

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer({ JOB_POLL_MS: "100" });
  browser = await launchChromium();
}, 120_000);

afterAll(() => closeAll(browser, srv));

/** A page of its own context, signed in as `email`. */
async function signedIn(email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  logPageErrors(page);
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, email);
  return page;
}

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

describe("admin settings", () => {
  test("described with unit, range and default; a value out of range refused in a sentence, nothing saved", async () => {
    const admin = await srv.admin();
    const page = await signedIn(admin.email);
    await nav(page, "Admin").click();
    const batchForm = page.getByRole("form", { name: "batch configs" });
    const maxFiles = batchForm.getByLabel("Most files in one batch, free plan batch.max_files_free", { exact: true });
    await maxFiles.waitFor({ timeout: 30_000 });
    expect(await maxFiles.inputValue()).toBe("20");
    const hint = await maxFiles.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby")!)?.textContent);
    expect(hint).toBe("A whole number from 1 to 10,000 files. Default: 20 files.");
    expect(await maxFiles.locator("xpath=following-sibling::span[@class='setting-unit']").textContent()).toBe("files");
    expect(await batchForm.getByLabel("Batches can be created; when off, creating one is refused batch.enabled", { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel(/^Largest total size of one batch, free plan/).locator("xpath=following-sibling::span").textContent()).toBe("MB");

    await maxFiles.fill("0");
    await batchForm.getByRole("button", { name: "Save batch configs" }).click();
    const alert = batchForm.getByRole("alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toBe("Most files in one batch, free plan (batch.max_files_free) must be a whole number from 1 to 10,000 files.");
    expect((await admin.admin.config()).batch_configs["batch.max_files_free"]).toBe(20);
    await shootAtTwoWidths(page, SHOTS, "admin-settings");

    await maxFiles.fill("30");
    await batchForm.getByRole("button", { name: "Save batch configs" }).click();
    await batchForm.getByText("Saved.").waitFor({ timeout: 15_000 });
    expect((await admin.admin.config()).batch_configs["batch.max_files_free"]).toBe(30);

    // The server's refusal of a request's shape, in sentences rather than schema paths.
    const grant = page.getByRole("form", { name: "Grant credits" });
    await grant.getByLabel("Account email").fill(admin.email);
    await grant.getByLabel("Credits", { exact: false }).fill("2.5");
    await grant.getByRole("button", { name: "Grant credits" }).click();
    await grant.getByRole("alert").waitFor({ timeout: 15_000 });
    expect(await grant.getByRole("alert").textContent()).toBe("Amount must be a whole number. Reason must not be empty.");
    await page.context().close();
  }, 90_000);
});

describe("account", () => {
  test("the credit ledger's reasons in words, a batch's charge linked to the batch", async () => {
    const user = await srv.user();
    const ids: string[] = [];
    for (const name of ["a.pdf", "b.pdf"]) ids.push((await user.files.upload(new Blob([(await makePdf(1, name)) as Uint8Array<ArrayBuffer>]), { filename: name, mime: "application/pdf" })).fileId);
    const { batchId } = await user.batches.create({ type: "pdf.compress", fileIds: ids, name: "Ledger batch" });
    await user.batches.waitFor(batchId);

    const page = await signedIn(user.email);
    await nav(page, "Account").click();
    const ledger = page.getByRole("region", { name: "Credit ledger" });
    await ledger.getByRole("cell", { name: "Credits every new account receives", exact: true }).waitFor({ timeout: 30_000 });
    expect(await ledger.getByText("a single tool run (Convert, on this device or on the server) costs none", { exact: false }).isVisible()).toBe(true);
    const charge = ledger.getByRole("link", { name: "Charge for the batch “Ledger batch”", exact: true });
    await shootAtTwoWidths(page, SHOTS, "account-ledger");
    await charge.click();
    await page.waitForURL((url) => url.pathname === "/batches" && url.searchParams.get("open") === batchId, { timeout: 15_000 });
    await page.getByRole("region", { name: "Batch Ledger batch" }).getByText("Completed: 2 of 2 done.", { exact: true }).waitFor({ timeout: 15_000 });
    await page.context().close();
  }, 90_000);

  test("Convert's Server choice says a run there costs no credits", async () => {
    const user = await srv.user();
    const page = await signedIn(user.email);
    await nav(page, "Convert").click();
    await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
    await page.getByLabel("Files", { exact: true }).setInputFiles([{ name: "one.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf(1, "one")) }]);
    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    const cost = page.locator("#engine-cost");
    expect(await cost.count()).toBe(0);
    await page.getByRole("radio", { name: "Server" }).check();
    await engineChosen(page, "Server");
    expect(await cost.textContent()).toBe(" A run on the server costs no credits; only batches and workflow runs are charged.");
    await page.context().close();
  }, 90_000);
});
