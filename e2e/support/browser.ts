/**
 * Debian's Chromium driven by playwright-core (Playwright's own browser downloads do not work
 * here), started with the flags this machine needs: no sandbox as root, no GPU, and none of the
 * background connections a closed network refuses. Playwright gives each launch a fresh profile.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** A headless Chromium, or a clear error when it is not installed; `extraArgs` after the usual flags. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (npm test does) or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Closes what a spec opened, in the order given (the browser before the server it talks to); one never opened is passed over. */
export async function closeAll(...opened: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const o of opened) await o?.close();
}

/** Prints the page's uncaught errors in the test output (they explain a failed wait); returns the page. */
export function logPageErrors(page: Page): Page {
  page.on("pageerror", (err) => console.log(`[browser pageerror] ${err.message}`));
  return page;
}
