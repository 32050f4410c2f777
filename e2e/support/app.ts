/**
 * Steps every spec takes in the web app: signing in through the form. For specs only (it reads
 * the test harness's password); the benchmarks share web.ts and browser.ts, not this.
 */
import { expect } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { PASSWORD } from "../../server/test/harness";

/**
 * Fills the open sign-in form with `email` and the test password, presses `button` (Sign in, or
 * Create account for a new account), and waits until the app offers Sign out.
 */
export async function signIn(page: Page, email: string, opts: { button?: "Sign in" | "Create account"; exact?: boolean; timeout?: number } = {}): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: opts.button ?? "Sign in", exact: opts.exact }).click();
  await page.getByRole("button", { name: "Sign out", exact: true }).waitFor({ timeout: opts.timeout ?? 30_000 });
}

/**
 * Screenshots the page as it is (`name`.png) and at a phone's 390 px (`name`-390.png), and holds
 * that the page never scrolls sideways on the phone; the viewport is restored after.
 */
export async function shootAtTwoWidths(page: Page, dir: string, name: string): Promise<void> {
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  const wide = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(dir, `${name}-390.png`), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(wide);
  await page.waitForTimeout(300);
}
