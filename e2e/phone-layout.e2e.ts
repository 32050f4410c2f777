/**
 * Phone layouts (issue 22, item 8) in Debian's Chromium against the real server. Signed in as the
 * administrator, with more than 25 files, tokens and batches, a workflow and one of its runs
 * listed (made through the API), every route of the app (web/src/router.tsx) is opened at 390
 * px: the page never scrolls sideways and the header is one row. The header's Menu is a
 * disclosure (aria-expanded, Escape closes it and gives focus back to its button, choosing a
 * screen closes it); tables become stacked rows whose cells carry their column's header, while
 * the wide layout keeps its one-row header and its tables; axe finds no serious violation in the
 * open menu or the stacked rows. Screenshots of every route at 1280 and 390 px under
 * e2e/screenshots/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { ADMIN_EMAIL, startTestServer, type TestServer } from "../server/test/harness";
import { shootAtTwoWidths, signIn } from "./support/app";
import { seriousViolations } from "./support/axe";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { requireWebBuild } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
/** More of each than one page of a list holds. */
const MANY = 26;
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 860 };
/** One row of the header: its links, buttons and padding are about 50 px; two rows would be 90. */
const ONE_ROW_PX = 80;

let srv: TestServer;
let browser: Browser;
let page: Page;
let workflowId = "";
let runId = "";
let batchId = "";

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  const admin = await srv.admin();
  await admin.admin.grantCredits({ email: ADMIN_EMAIL, amount: 1_000, reason: "phone layout test" });
  const fileIds: string[] = [];
  for (let i = 1; i <= MANY; i++) {
    // Long names without spaces: what a phone's stacked rows must wrap instead of scrolling.
    const filename = `site-survey-${String(i).padStart(2, "0")}-north-elevation-revision-c.pdf`;
    fileIds.push((await admin.files.upload(new Blob([(await makePdf(1, filename)) as Uint8Array<ArrayBuffer>]), { filename, mime: "application/pdf" })).fileId);
  }
  for (let i = 1; i <= MANY; i++) await admin.tokens.create({ name: `Build server ${i}`, scopes: ["api"] });
  for (let i = 0; i < MANY; i++) batchId = (await admin.batches.create({ type: "pdf.metadata", fileIds: [fileIds[i]!], name: `Survey batch ${i + 1}` })).batchId;
  const [template] = await admin.workflows.templates.list();
  workflowId = (await admin.workflows.create({ name: "Compress the surveys", graphJson: template!.graphJson })).id;
  runId = (await admin.workflows.run(workflowId, [fileIds[0]!])).runId;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: WIDE, reducedMotion: "reduce" })).newPage();
  logPageErrors(page);
  await page.goto(`${srv.url}/sign-in`);
  await signIn(page, ADMIN_EMAIL);
}, 300_000);

afterAll(() => closeAll(browser, srv));

/** Every route of web/src/router.tsx (and an unknown path), with the name of its screenshot. */
const routes = () => [
  { path: "/", shot: "phone-convert" },
  { path: "/sign-in", shot: "phone-sign-in" },
  { path: "/reset-password", shot: "phone-reset-password" },
  { path: "/files", shot: "phone-files" },
  { path: "/batches", shot: "phone-batches" },
  { path: `/batches?open=${batchId}`, shot: "phone-batch" },
  { path: "/workflows", shot: "phone-workflows" },
  { path: `/workflows/${workflowId}`, shot: "phone-editor" },
  { path: "/workflows/runs", shot: "phone-runs" },
  { path: `/workflows/runs/${runId}`, shot: "phone-run" },
  { path: "/approvals", shot: "phone-approvals" },
  { path: "/tokens", shot: "phone-tokens" },
  { path: "/account", shot: "phone-account" },
  { path: "/admin", shot: "phone-admin" },
  { path: "/no-such-screen", shot: "phone-not-found" },
];

/** Opens `path` and waits until its screen has a heading and nothing says it is still loading. */
async function open(path: string): Promise<void> {
  await page.goto(srv.url + path);
  await page.locator("main h1").first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !/Loading…/.test(document.querySelector("main")?.textContent ?? ""), null, { timeout: 30_000 });
}

/** How far the page scrolls sideways (0 when it does not) and how tall the header is. */
const measure = () =>
  page.evaluate(() => ({
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    header: document.querySelector("header.top")!.getBoundingClientRect().height,
  }));

const menuButton = () => page.getByRole("button", { name: "Menu" });
const nav = () => page.getByRole("navigation", { name: "Main" });

describe("phone layouts", () => {
  test("every route at 390 px: no sideways scrolling, a one-row header; screenshots at 1280 and 390 px", async () => {
    const failures: string[] = [];
    for (const { path, shot } of routes()) {
      await page.setViewportSize(WIDE);
      await open(path);
      await shootAtTwoWidths(page, SHOTS, shot);
      await page.setViewportSize(PHONE);
      await open(path);
      const { sideways, header } = await measure();
      if (sideways > 0) failures.push(`${path} scrolls ${sideways} px sideways`);
      if (header >= ONE_ROW_PX) failures.push(`${path}: the header is ${header} px tall`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  test("the workflow editor's overview map: beside the canvas at 1280 px, left out at 390 px, where it would cover half of it", async () => {
    const map = page.locator(".react-flow__minimap");
    await page.setViewportSize(WIDE);
    await open(`/workflows/${workflowId}`);
    await map.waitFor();
    await page.setViewportSize(PHONE);
    await map.waitFor({ state: "detached" });
    await open(`/workflows/${workflowId}`);
    await page.getByRole("region", { name: "Canvas" }).locator(".react-flow__node").first().waitFor();
    expect(await map.count()).toBe(0);
    // Back to a wide window without reloading: the map comes back.
    await page.setViewportSize(WIDE);
    await map.waitFor();
  });

  test("the header's Menu at 390 px: a disclosure that Escape closes, focus back on its button", async () => {
    await page.setViewportSize(PHONE);
    await open("/files");
    expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
    expect(await nav().isVisible()).toBe(false);
    await menuButton().focus();
    await page.keyboard.press("Enter");
    expect(await menuButton().getAttribute("aria-expanded")).toBe("true");
    await nav().getByRole("link", { name: "Tokens", exact: true }).waitFor();
    await page.screenshot({ path: join(SHOTS, "phone-menu-open-390.png") });
    expect(await seriousViolations(page)).toEqual([]);
    // Into the menu with Tab, then Escape: closed, and focus is where it was opened from.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("#site-menu") !== null)).toBe(true);
    await page.keyboard.press("Escape");
    expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
    expect(await nav().isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toEndWith("Menu");
    // Choosing a screen from the menu goes there and closes it.
    await menuButton().click();
    await nav().getByRole("link", { name: "Tokens", exact: true }).click();
    await page.waitForURL("**/tokens");
    expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
    // Sign out is in the menu too.
    await menuButton().click();
    expect(await page.getByRole("button", { name: "Sign out", exact: true }).isVisible()).toBe(true);
    await menuButton().click();
    expect(await page.getByRole("button", { name: "Sign out", exact: true }).isVisible()).toBe(false);
  }, 120_000);

  test("tables at 390 px are stacked rows, each cell labelled with its column's header", async () => {
    await page.setViewportSize(PHONE);
    await open("/tokens");
    const cells = await page.evaluate(() => {
      const table = document.querySelector("main table")!;
      const row = table.querySelector("tbody tr")!;
      return {
        headers: [...table.querySelectorAll("thead th")].map((th) => th.textContent),
        labels: [...row.children].map((cell) => cell.getAttribute("data-label")),
        shown: [...row.children].map((cell) => getComputedStyle(cell, "::before").content),
        display: getComputedStyle(row.children[0]!).display,
        headerRowHeight: table.querySelector("thead")!.getBoundingClientRect().height,
        tableFits: table.getBoundingClientRect().right <= document.documentElement.clientWidth,
      };
    });
    expect(cells.labels).toEqual(cells.headers);
    expect(cells.shown[0]).toBe(`"${cells.headers[0]}"`);
    expect(cells.display).toBe("block");
    expect(cells.headerRowHeight).toBeLessThanOrEqual(1);
    expect(cells.tableFits).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    // Screen readers still meet a table with its column headers.
    expect(await page.getByRole("table").first().getByRole("columnheader", { name: "Name" }).count()).toBe(1);
    expect(await page.getByRole("table").first().getByRole("row").count()).toBeGreaterThan(MANY / 2);
  }, 60_000);

  test("at 1280 px the header is the one-row bar without a Menu, and tables keep their columns", async () => {
    await page.setViewportSize(WIDE);
    await open("/tokens");
    expect(await menuButton().isVisible()).toBe(false);
    expect(await nav().getByRole("link", { name: "Files", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Sign out", exact: true }).isVisible()).toBe(true);
    expect((await measure()).header).toBeLessThan(ONE_ROW_PX);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("main tbody td")!).display)).toBe("table-cell");
  }, 60_000);
});
