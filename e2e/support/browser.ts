/**
 * Debian's Chromium driven by playwright-core (Playwright's own browser downloads do not work
 * here), started with the flags this machine needs: no sandbox as root, no GPU, and none of the
 * background connections a closed network refuses. Playwright gives each launch a fresh profile.
 */
import { afterEach } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from "playwright-core";

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

/**
 * Content-Security-Policy violations seen since the last test ended (issue 26: the whole suite
 * runs under the server's policy and fails on any violation): the page's own
 * `securitypolicyviolation` events, and Chromium's "Refused to ..." console lines, which also
 * come from workers, where no page event fires.
 */
const cspViolations: string[] = [];

/** Records each violation a page reports, before any of its scripts run. */
function recordViolations() {
  document.addEventListener("securitypolicyviolation", (e) => {
    console.error(`[csp-violation] ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
  });
}

const isViolation = (msg: ConsoleMessage) => /^\[csp-violation\]|Refused to .*Content Security Policy/s.test(msg.text());

function watchCsp(context: BrowserContext): BrowserContext {
  void context.addInitScript(recordViolations);
  context.on("console", (msg) => {
    if (isViolation(msg)) cspViolations.push(`${msg.page()?.url() ?? "worker"}: ${msg.text()}`);
  });
  return context;
}

// Every spec that uses this module fails the test during which a violation was reported. The
// benchmarks use this module outside the test runner, where afterEach throws: there is no test to fail.
try {
  afterEach(() => {
    const seen = cspViolations.splice(0);
    if (seen.length > 0) throw new Error(`Content-Security-Policy violations:\n${seen.join("\n")}`);
  });
} catch {
  // not under bun test
}

/**
 * A headless Chromium, or a clear error when it is not installed; `extraArgs` after the usual
 * flags. Its contexts (and so its pages: newPage opens one) report CSP violations (see cspViolations).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (npm test does) or set CHROMIUM_PATH`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchCsp(await newContext(options));
  return browser;
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
