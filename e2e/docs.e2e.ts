/**
 * The API reference at /docs (Scalar, served by the server itself) makes no request to another
 * host, in Debian's Chromium: fonts are the system's, and "Ask AI", "Generate MCP" and "Deploy"
 * (which call Scalar's services) are not offered. Screenshots at desktop width and at 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";

const SHOTS = join(import.meta.dir, "screenshots");
let srv: TestServer;
let browser: Browser;
let page: Page;
/** Every URL the page and its workers asked for (refused ones included). */
const requested: string[] = [];

/**
 * Lets late loads (fonts, lazy chunks, telemetry) start before requests are counted: the page's
 * fonts settled, then a moment more (Scalar keeps a connection busy, so "network idle" never comes).
 */
async function settle(): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => true));
  await page.waitForTimeout(1500);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.on("request", (req) => void requested.push(req.url()));
  page = logPageErrors(await context.newPage());
}, 60_000);

afterAll(() => closeAll(browser, srv));

describe("/docs", () => {
  test("the reference renders with no request to another host", async () => {
    await page.goto(`${srv.url}/docs`);
    await page.getByRole("heading", { name: "Vektor conversion and workflow service" }).first().waitFor({ timeout: 30_000 });
    await settle();
    const own = new URL(srv.url).host;
    const away = requested.filter((url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).host !== own);
    expect(away).toEqual([]);
    expect(requested.some((url) => url.endsWith("/docs/scalar.js"))).toBe(true);
    await page.screenshot({ path: join(SHOTS, "docs.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await settle();
    await page.screenshot({ path: join(SHOTS, "docs-390.png") });
    expect(requested.filter((url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).host !== own)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 90_000);

  test('no "Ask AI", "Generate MCP" or "Deploy"', async () => {
    for (const name of ["Ask AI", "Generate MCP", "Deploy"]) expect(await page.getByText(name, { exact: true }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Ask AI|Generate MCP|Deploy/ }).count()).toBe(0);
  });
});
