/**
 * Cancel batch in the web app: a batch whose items are still queued when Cancel is pressed ends
 * cancelled, every item shows cancelled, and (through the official client) the per-file credits
 * of the items that never started come back (contract section 3). The server runs as ROLE=api,
 * with no queue runner in the process: its items stay queued for as long as the test needs, so
 * "still running when Cancel is pressed" holds without racing the tools. The same holds for
 * Cancel of a run on the server in Convert: the job is cancelled on the server, not only no
 * longer watched.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startTestServer, waitFor, type TestServer } from "../server/test/harness";
import { signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { engineChosen, requireWebBuild } from "./support/web";

const NAMES = ["one.pdf", "two.pdf", "three.pdf"];

let srv: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer({ ROLE: "api" });
  browser = await launchChromium();
  page = await browser.newPage();
  logPageErrors(page);
}, 120_000);

afterAll(() => closeAll(browser, srv));

describe("cancel a batch", () => {
  test("queued items are cancelled, the batch shows cancelled, their per-file credits come back", async () => {
    const client = await srv.user();
    for (const name of NAMES) await client.files.upload(new Blob([(await makePdf(1, name)) as Uint8Array<ArrayBuffer>]), { filename: name, mime: "application/pdf" });
    const settings = await client.batches.settings();
    const before = (await client.account()).credits;

    await page.goto(`${srv.url}/sign-in`);
    await signIn(page, client.email);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches", exact: true }).click();

    const form = page.getByRole("form", { name: "New batch" });
    const picker = form.getByRole("group", { name: "Files for the batch" });
    for (const name of NAMES) await picker.getByLabel(name, { exact: true }).check();
    await form.getByLabel("Batch tool").selectOption("pdf.compress");
    await form.getByText(/ × 3 files = \d+ credits\.$/).waitFor({ timeout: 30_000 });
    await form.getByRole("button", { name: "Create batch" }).click();

    const view = page.getByRole("region", { name: /^Batch / });
    await view.getByText(/^Waiting to start: 0 of 3 done\.$/).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Cancel batch" }).click();
    await view.getByText(/^Cancelled: 0 of 3 done, 3 cancelled\.$/).waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => [...document.querySelectorAll("[aria-labelledby=batch-title] td:nth-child(2)")].every((td) => td.textContent === "Cancelled"), null, { timeout: 30_000 });
    expect(await view.getByRole("cell", { name: "Cancelled", exact: true }).count()).toBe(3);
    expect(await page.getByRole("button", { name: "Cancel batch" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /^Download ZIP of / }).count()).toBe(0);

    // The same batch through the official client: cancelled, nothing ran, the per-file part refunded.
    const { items } = await client.batches.list();
    expect(items.length).toBe(1);
    const detail = await client.batches.get(items[0]!.batchId);
    const charged = settings.baseCredits + settings.perFileCredits * NAMES.length;
    expect(detail.batch).toMatchObject({ status: "cancelled", total: 3, done: 0, failed: 0, cancelled: 3, credits: charged, refunded: settings.perFileCredits * NAMES.length });
    expect(detail.files.map((f) => f.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    expect((await client.account()).credits).toBe(before - settings.baseCredits);
  }, 180_000);
});

describe("cancel a run on the server", () => {
  test("Cancel in Convert cancels the server's job: it ends cancelled and never runs", async () => {
    const client = await srv.user();
    const own = await (await browser.newContext()).newPage();
    logPageErrors(own);
    await own.goto(`${srv.url}/sign-in`);
    await signIn(own, client.email);
    await own.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Convert", exact: true }).click();
    await own.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });

    const bytes = await makePdf(1, "server run");
    await own.getByLabel("Files", { exact: true }).setInputFiles([{ name: "run.pdf", mimeType: "application/pdf", buffer: Buffer.from(bytes) }]);
    await own.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    await own.getByRole("radio", { name: "Server" }).check();
    await engineChosen(own, "Server");
    await own.getByRole("button", { name: "Run" }).click();
    await own.getByRole("status").filter({ hasText: "queued on the server" }).waitFor({ timeout: 30_000 });
    await own.getByRole("button", { name: "Cancel" }).click();
    await own.getByRole("status").filter({ hasText: "Cancelled." }).waitFor({ timeout: 10_000 });

    // The job itself, through the official client: cancelled before it started.
    const job = await waitFor("the job to be cancelled", async () => (await client.jobs.list()).items, (items) => items[0]?.status === "cancelled", 10_000);
    expect(job).toHaveLength(1);
    expect(job[0]).toMatchObject({ type: "pdf.compress", status: "cancelled", errorCode: "CANCELLED", startedAt: null, attempts: 0 });
    await own.context().close();
  }, 180_000);
});
