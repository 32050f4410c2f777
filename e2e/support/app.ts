/**
 * Steps every spec takes in the web app: signing in through the form. For specs only (it reads
 * the test harness's password); the benchmarks share web.ts and browser.ts, not this.
 */
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
