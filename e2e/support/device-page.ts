/**
 * A signed-out page of the web app on a fresh server, ready to run tools on this device: what
 * the streaming specs (a big file picked and run in the browser) start from.
 */
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../../server/test/harness";
import { closeAll, launchChromium, logPageErrors } from "./browser";
import { requireWebBuild } from "./web";

export interface DevicePage {
  srv: TestServer;
  browser: Browser;
  page: Page;
}

/** Starts the server and Chromium and opens the app until its tools are listed. */
export async function openDevicePage(): Promise<DevicePage> {
  requireWebBuild();
  const srv = await startTestServer();
  const browser = await launchChromium();
  const page = logPageErrors(await browser.newPage({ acceptDownloads: true, viewport: { width: 1280, height: 900 } }));
  await page.goto(srv.url);
  await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
  return { srv, browser, page };
}

export function closeDevicePage(opened: Partial<DevicePage>): Promise<void> {
  return closeAll(opened.browser, opened.srv);
}
