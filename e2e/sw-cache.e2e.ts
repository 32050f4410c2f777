/**
 * What the service worker keeps, in Debian's Chromium against the real server (issue 22, item 5,
 * and the first visit's size). The precache is the shell only (web/vite/first-visit.ts) and
 * travels brotli-compressed: the worker's requests carry Accept-Encoding and the server answers
 * with the build's .br copies. Cache Storage keeps each entry's Content-Encoding and compressed
 * Content-Length, but the body as the Fetch standard hands it over, decoded: Chromium stores
 * Cache Storage bodies uncompressed (w3c/ServiceWorker#1641), so what is kept on disk is the
 * decoded size. A screen behind sign-in is not precached; its chunk is cached when first opened.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { requireWebBuild } from "./support/web";

let srv: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer();
  browser = await launchChromium();
  page = await browser.newPage();
  logPageErrors(page);
  await page.goto(srv.url);
  await page.getByText("Ready to work offline.").waitFor({ timeout: 60_000 });
}, 120_000);

afterAll(() => closeAll(browser, srv));

interface Entry {
  cache: string;
  path: string;
  encoding: string | null;
  /** The Content-Length the server sent: the compressed size for a compressed answer. */
  sent: number;
  /** The body Cache Storage gives back. */
  body: number;
}

/** Every entry of every cache of the page's origin. */
const cacheEntries = () =>
  page.evaluate(async () => {
    const out: Entry[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        const res = (await cache.match(req))!;
        const body = (await res.arrayBuffer()).byteLength;
        out.push({ cache: name, path: new URL(req.url).pathname, encoding: res.headers.get("content-encoding"), sent: Number(res.headers.get("content-length") ?? body), body });
      }
    }
    return out;
  });

describe("the service worker's caches", () => {
  test("the precache is the shell, fetched brotli-compressed; Cache Storage holds the bodies decoded", async () => {
    const precache = (await cacheEntries()).filter((e) => e.cache.startsWith("workbox-precache"));
    const scripts = precache.filter((e) => e.path.endsWith(".js"));
    expect(scripts.some((e) => /\/ConvertScreen-/.test(e.path))).toBe(true);
    expect(scripts.some((e) => /\/(FilesScreen|TokensScreen|AdminScreen)-/.test(e.path))).toBe(false);
    // Every script of some size came as brotli, whether the worker fetched it or the page had (the
    // worker's copy then comes from the HTTP cache, with the same headers).
    const large = scripts.filter((e) => e.body > 2048);
    expect(large.length).toBeGreaterThan(3);
    expect(large.filter((e) => e.encoding !== "br").map((e) => e.path)).toEqual([]);
    // What was sent is the compressed size; what the cache gives back (and stores) is decoded.
    const sent = large.reduce((n, e) => n + e.sent, 0);
    const body = large.reduce((n, e) => n + e.body, 0);
    console.log(`precache scripts over 2 KB: ${large.length} files, ${(sent / 1024).toFixed(1)} KB sent, ${(body / 1024).toFixed(1)} KB in Cache Storage`);
    expect(body).toBeGreaterThan(sent * 2);
  }, 60_000);

  test("a screen behind sign-in is cached when first opened", async () => {
    const user = await srv.user();
    await page.goto(`${srv.url}/sign-in`);
    await signIn(page, user.email);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tokens", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Tokens", exact: true }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      async () => {
        const cache = await caches.open("vektor-screens");
        return (await cache.keys()).some((r) => /\/TokensScreen-[\w-]+\.js$/.test(r.url));
      },
      null,
      { timeout: 30_000 },
    );
  }, 60_000);
});
