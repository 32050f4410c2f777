/**
 * Batches in Debian's Chromium against the real server (issue 22, item 7): files picked from all
 * of the caller's 30 (a page at a time, searched by name, every match selected at once), the
 * batch named, the charge explained before creating (base + per file x N = total), the list and
 * the open batch agreeing on progress while it runs, each file's output downloaded beside the
 * ZIP, and the batch renamed (a blank name refused in a sentence). Screens at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths, signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { requireWebBuild } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
/** 27 plans and 3 notes: more than one page of the picker (25). */
const PLANS = Array.from({ length: 27 }, (_, i) => `plan-${String(i + 1).padStart(2, "0")}.pdf`);
const NOTES = ["notes-a.pdf", "notes-b.pdf", "notes-c.pdf"];

let srv: TestServer;
let browser: Browser;
let page: Page;
let client: Awaited<ReturnType<TestServer["user"]>>;

const shoot = (name: string) => shootAtTwoWidths(page, SHOTS, name);

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer({ JOB_POLL_MS: "100" });
  // One item at a time, so the batch is seen running for a while.
  await (await srv.admin()).admin.setConfig("platform_configs", { "processing.max_concurrent_per_user": 1 });
  client = await srv.user();
  for (const name of [...PLANS, ...NOTES]) await client.files.upload(new Blob([(await makePdf(1, name)) as Uint8Array<ArrayBuffer>]), { filename: name, mime: "application/pdf" });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })).newPage();
  logPageErrors(page);
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, client.email);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches", exact: true }).click();
}, 180_000);

afterAll(() => closeAll(browser, srv));

const form = () => page.getByRole("form", { name: "New batch" });
const picker = () => form().getByRole("group", { name: "Files for the batch" });
const count = () => picker().locator(".picked-count");
const shownNames = async () => (await picker().getByRole("list", { name: "Your files" }).locator("label").allTextContents()).sort();

describe("a batch from the picker to its outputs", () => {
  test("all files paged and searched, every match selected, the charge explained, named", async () => {
    // Newest first, 25 to a page: the first page holds the notes and the last 22 plans.
    await picker().getByLabel("notes-a.pdf", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await shownNames()).toHaveLength(25);
    await picker().getByRole("button", { name: "Next page" }).click();
    await picker().getByLabel("plan-01.pdf", { exact: true }).waitFor({ timeout: 15_000 });
    expect(await shownNames()).toEqual(PLANS.slice(0, 5));
    await picker().getByLabel("plan-03.pdf", { exact: true }).check();

    await picker().getByLabel("Search your files by name").fill("notes");
    await picker().getByLabel("notes-b.pdf", { exact: true }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelectorAll("[aria-label='Your files'] li").length === 3, null, { timeout: 15_000 });
    expect(await shownNames()).toEqual(NOTES);
    await picker().getByRole("button", { name: "Select every file matching “notes”" }).click();
    await count().filter({ hasText: "4 files chosen (1 not on this page of the search)." }).waitFor({ timeout: 15_000 });

    // Every plan (27, over two pages of the list) in one press.
    await picker().getByLabel("Search your files by name").fill("PLAN-");
    await picker().getByLabel("plan-27.pdf", { exact: true }).waitFor({ timeout: 15_000 });
    await picker().getByRole("button", { name: "Select every file matching “PLAN-”" }).click();
    await count().filter({ hasText: /^30 files chosen/ }).waitFor({ timeout: 15_000 });
    expect(await picker().getByLabel("plan-27.pdf", { exact: true }).isChecked()).toBe(true);
    await picker().getByRole("button", { name: "Unselect this page" }).click();
    await count().filter({ hasText: "5 files chosen (5 not on this page of the search)." }).waitFor({ timeout: 15_000 });
    await picker().getByLabel("Search your files by name").fill("");
    await count().filter({ hasText: /^5 files chosen\.$/ }).waitFor({ timeout: 15_000 });

    await form().getByLabel("Batch tool").selectOption("pdf.compress");
    await form().getByLabel("Batch name").fill("Site plans");
    const settings = await client.batches.settings();
    const total = settings.baseCredits + settings.perFileCredits * 5;
    const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;
    await form()
      .getByText(`${credits(settings.baseCredits)} for the batch + ${credits(settings.perFileCredits)} per file × 5 files = ${credits(total)}.`, { exact: true })
      .waitFor({ timeout: 15_000 });
    const balance = (await client.account()).credits;
    expect(await form().locator("#batch-balance").textContent()).toBe(`Your balance: ${credits(balance)}; ${credits(balance - total)} left after this batch.`);
    await shoot("batches-picker");
  }, 120_000);

  test("while it runs the list and the open batch show the same progress; then each output downloads beside the ZIP", async () => {
    await form().getByRole("button", { name: "Create batch" }).click();
    const view = page.getByRole("region", { name: "Batch Site plans" });
    await view.waitFor({ timeout: 30_000 });
    const { items } = await client.batches.list();
    const id = items[0]!.batchId;
    expect(items[0]).toMatchObject({ name: "Site plans", total: 5 });

    // Sampled in one task, so both are read from the same rendered page.
    const samples: { list: string | null; detail: string | null }[] = [];
    for (let i = 0; i < 400; i++) {
      const s = await page.evaluate((batchId) => {
        const text = (el: Element | null | undefined) => el?.querySelector(".batch-progress-text")?.textContent ?? null;
        return { detail: text(document.querySelector("[aria-labelledby=batch-title]")), list: text(document.querySelector(`tr[data-batch="${batchId}"]`)) };
      }, id);
      samples.push(s);
      if (s.detail?.startsWith("Completed") && s.list?.startsWith("Completed")) break;
      await page.waitForTimeout(50);
    }
    expect(samples.at(-1)!.detail).toBe("Completed: 5 of 5 done.");
    // From the moment both show the batch (the list's row comes with its next fetch), they agree.
    const both = samples.filter((s) => s.detail !== null && s.list !== null);
    expect(both.length).toBeGreaterThan(0);
    expect(both.filter((s) => s.detail !== s.list)).toEqual([]);
    expect(samples.some((s) => /^(Running|Waiting to start): [0-4] of 5/.test(s.detail ?? ""))).toBe(true);

    // Each file's output, by name, beside the ZIP of them all.
    await view.getByRole("link", { name: "Download ZIP of Site plans" }).waitFor({ timeout: 30_000 });
    const detail = await client.batches.get(id);
    const outputs = detail.files.flatMap((f) => f.outputs);
    expect(outputs).toHaveLength(5);
    for (const out of outputs.slice(0, 2)) {
      const link = view.getByRole("link", { name: out.filename, exact: true });
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(download.suggestedFilename()).toBe(out.filename);
      const bytes = new Uint8Array(await Bun.file(await download.path()).arrayBuffer());
      expect(bytes.length).toBe(out.size);
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    }
    await shoot("batches-detail");
  }, 180_000);

  test("renamed in place: a blank name is refused in a sentence, a new one shows in the list and the ZIP link", async () => {
    const view = page.getByRole("region", { name: "Batch Site plans" });
    await view.getByRole("button", { name: "Rename batch" }).click();
    await view.getByLabel("New name").fill("   ");
    await view.getByRole("button", { name: "Save name" }).click();
    const alert = view.getByRole("alert");
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toBe("The batch name must not be blank");
    await view.getByLabel("New name").fill("Site plans, April");
    await view.getByRole("button", { name: "Save name" }).click();
    const renamed = page.getByRole("region", { name: "Batch Site plans, April" });
    await renamed.getByRole("link", { name: "Download ZIP of Site plans, April" }).waitFor({ timeout: 15_000 });
    await page.getByRole("region", { name: "Your batches" }).getByRole("cell", { name: "Site plans, April", exact: true }).waitFor({ timeout: 15_000 });
    expect((await client.batches.list()).items[0]!.name).toBe("Site plans, April");
    await shoot("batches-renamed");
  }, 60_000);
});
