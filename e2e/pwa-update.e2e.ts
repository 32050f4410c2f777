/**
 * "Update available, reload": the page runs under the service worker, then the server starts
 * serving a new build (here: the same sw.js with a few bytes more, which is all the browser
 * compares), the page checks for it, the banner offers Reload, and pressing it reloads the page
 * under the new worker. The real server sits behind a small loopback proxy in this file that can
 * switch /sw.js to the new bytes: nothing in the server or in web/dist changes, so other tests
 * running at the same time see the usual build.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../server/test/harness";
import { launchChromium, logPageErrors } from "./support/browser";
import { requireWebBuild, WEB_DIST } from "./support/web";

/** The new version's worker answers "version" on a message port, so the test can tell which one controls. */
const NEW_VERSION_MARKER = `
self.addEventListener("message", (event) => {
  if (event.data === "vektor-test-version" && event.ports[0]) event.ports[0].postMessage("2");
});
`;

let srv: TestServer;
let proxy: ReturnType<typeof Bun.serve>;
let browser: Browser;
let page: Page;
let newBuild = false;

/** Forwards everything to the real server, except /sw.js once the new build is "deployed". */
function startProxy(target: string): ReturnType<typeof Bun.serve> {
  const newSw = readFileSync(join(WEB_DIST, "sw.js"), "utf8") + NEW_VERSION_MARKER;
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (newBuild && url.pathname === "/sw.js") {
        return new Response(newSw, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } });
      }
      const headers = new Headers(req.headers);
      headers.delete("host");
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const res = await fetch(target + url.pathname + url.search, {
        method: req.method,
        headers,
        body: hasBody ? await req.arrayBuffer() : undefined,
        redirect: "manual",
        decompress: false,
      });
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
}

/** The version string the controlling worker answers, or null when it has no answer (the old build). */
async function controllerVersion(p: Page, waitMs: number): Promise<string | null> {
  return p.evaluate(
    (waitMs) =>
      new Promise<string | null>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve(null);
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(String(event.data));
        controller.postMessage("vektor-test-version", [channel.port2]);
        // The old worker never answers this message: "no answer" after waitMs.
        setTimeout(() => resolve(null), waitMs);
      }),
    waitMs,
  );
}

beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer();
  proxy = startProxy(srv.url);
  browser = await launchChromium();
  page = await browser.newPage();
  logPageErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  proxy?.stop(true);
  await srv?.close();
});

describe("a new version of the web app", () => {
  test("the banner offers Reload, which reloads the page under the new version", async () => {
    const origin = `http://127.0.0.1:${proxy.port}`;
    await page.goto(origin);
    await page.getByText("Ready to work offline.").waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, { timeout: 60_000 });
    expect(await page.getByRole("button", { name: "Reload" }).count()).toBe(0);
    expect(await controllerVersion(page, 2_000)).toBeNull();

    newBuild = true;
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration!.update();
    });
    const reload = page.getByRole("button", { name: "Reload" });
    await reload.waitFor({ timeout: 60_000 });
    expect(await page.getByText("A new version of Vektor is available.").isVisible()).toBe(true);

    // A mark on this page's window: gone after the reload.
    await page.evaluate(() => ((window as unknown as { oldPage: boolean }).oldPage = true));
    await Promise.all([page.waitForEvent("load", { timeout: 60_000 }), reload.click()]);
    await page.waitForFunction(() => !(window as unknown as { oldPage?: boolean }).oldPage && navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
    expect(await controllerVersion(page, 30_000)).toBe("2");
    await page.getByRole("heading", { name: "Convert", exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("button", { name: "Reload" }).count()).toBe(0);
  }, 180_000);
});

describe("installing the app", () => {
  // Headless Chromium never offers an install itself: the test hands the page the event a
  // browser fires when the app is installable, with a prompt() that records it was called.
  test("the browser's install offer becomes an Install app button, which opens the browser's prompt once", async () => {
    await page.goto(`http://127.0.0.1:${proxy.port}`);
    await page.getByRole("heading", { name: "Convert", exact: true }).waitFor({ timeout: 30_000 });
    const install = page.getByRole("button", { name: "Install app" });
    expect(await install.count()).toBe(0);
    await page.evaluate(() => {
      const offer = new Event("beforeinstallprompt", { cancelable: true }) as Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };
      const w = window as unknown as { prompted: number; offerPrevented: boolean };
      w.prompted = 0;
      offer.prompt = async () => void w.prompted++;
      offer.userChoice = Promise.resolve({ outcome: "accepted" });
      window.dispatchEvent(offer);
      w.offerPrevented = offer.defaultPrevented;
    });
    await install.waitFor({ timeout: 30_000 });
    // The app keeps the offer for its own button instead of the browser's mini bar.
    expect(await page.evaluate(() => (window as unknown as { offerPrevented: boolean }).offerPrevented)).toBe(true);
    await install.click();
    await page.waitForFunction(() => (window as unknown as { prompted: number }).prompted === 1, null, { timeout: 30_000 });
    await install.waitFor({ state: "detached", timeout: 30_000 });
  }, 120_000);
});
