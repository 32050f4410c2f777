/**
 * The Account screen's security features in Debian's Chromium against the real server: a common
 * password refused at sign-up with the reason; the sessions list (this one and one from a
 * script) and "Sign out other sessions"; changing the password; deleting the account; a
 * forgotten password reset through the e-mailed link (a real SMTP exchange on loopback). Screens
 * are saved under e2e/screenshots/ at 1280 and 390 px, and axe finds no serious violation.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { PASSWORD, startTestServer, waitFor, type TestServer } from "../server/test/harness";
import { decodedMail, startMailSink } from "../server/test/mail-sink";
import { shootAtTwoWidths, signIn } from "./support/app";
import { seriousViolations } from "./support/axe";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { requireWebBuild } from "./support/web";

const SHOTS = join(import.meta.dir, "screenshots");
const NEW_PASSWORD = "another long passphrase";

let srv: TestServer;
let browser: Browser;
let page: Page;

const shoot = (name: string) => shootAtTwoWidths(page, SHOTS, name);

beforeAll(async () => {
  requireWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer();
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  logPageErrors(page);
}, 120_000);

afterAll(() => closeAll(browser, srv));

const sessionsCard = () => page.getByRole("region", { name: "Sessions" });

describe("the account's security", () => {
  test("sign-up refuses a common password and says why", async () => {
    await page.goto(`${srv.url}/sign-in`);
    await page.getByLabel("Email").fill(`weak-${crypto.randomUUID().slice(0, 8)}@example.test`);
    await page.getByLabel("Password").fill("12345678");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("alert").getByText(/common or breached passwords/).waitFor({ timeout: 30_000 });
  });

  test("sessions: this one and another; sign out the others", async () => {
    const other = await srv.user(); // a script's session of the same account, below
    await page.goto(`${srv.url}/sign-in`);
    await signIn(page, other.email);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account", exact: true }).click();
    await sessionsCard().getByText("(this session)").waitFor({ timeout: 30_000 });
    expect(await sessionsCard().getByRole("row").count()).toBe(3); // header + 2 sessions
    expect(await seriousViolations(page)).toEqual([]);
    await shoot("account-sessions");
    await sessionsCard().getByRole("button", { name: "Sign out other sessions" }).click();
    await page.waitForFunction(() => document.querySelectorAll("[aria-labelledby=sessions-title] tbody tr").length === 1, null, { timeout: 30_000 });
    await expect(other.account()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await sessionsCard().getByRole("button", { name: "Sign out other sessions" }).isDisabled()).toBe(true);

    // Changing the password: a wrong current one is refused, then the change works.
    const form = page.getByRole("form", { name: "Change the password" });
    await form.getByLabel("Current password").fill("not the password");
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByRole("alert").waitFor({ timeout: 30_000 });
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByRole("status").getByText("Password changed").waitFor({ timeout: 30_000 });
    await shoot("account-password");
    const again = srv.anon();
    await again.auth.signIn({ email: other.email, password: NEW_PASSWORD });

    // Deleting the account: the password confirms it, then the app is signed out.
    const del = page.getByRole("form", { name: "Delete the account" });
    await del.getByLabel("Password, to confirm").fill(NEW_PASSWORD);
    await del.getByRole("button", { name: "Delete my account" }).click();
    await page.getByRole("link", { name: "Sign in" }).first().waitFor({ timeout: 30_000 });
    await expect(srv.anon().auth.signIn({ email: other.email, password: NEW_PASSWORD })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await shoot("account-deleted");
  });

  test("a forgotten password: the e-mailed link sets a new one, which signs in", async () => {
    const sink = await startMailSink();
    try {
      await (await srv.admin()).admin.setConfig("platform_configs", { "email.smtp_url": sink.url });
      const c = await srv.user();
      await page.goto(`${srv.url}/sign-in`);
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      const ask = page.getByRole("form", { name: "Ask for a reset link" });
      await ask.getByLabel("Email").fill(c.email);
      await ask.getByRole("button", { name: "Send the link" }).click();
      await ask.getByRole("status").waitFor({ timeout: 30_000 });
      await shoot("account-reset-request");
      const mail = await waitFor("the reset e-mail", async () => sink.mails.find((m) => m.to.includes(c.email)), (m) => m !== undefined);
      const link = decodedMail(mail!.raw).match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0];
      await page.goto(link);
      const set = page.getByRole("form", { name: "Set a new password" });
      await set.getByLabel("New password").fill(NEW_PASSWORD);
      await set.getByRole("button", { name: "Set the password" }).click();
      await page.waitForURL(/\/sign-in/, { timeout: 30_000 });
      await srv.anon().auth.signIn({ email: c.email, password: NEW_PASSWORD });
      await expect(c.account()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    } finally {
      await (await srv.admin()).admin.setConfig("platform_configs", { "email.smtp_url": "" });
      await sink.close();
    }
  });
});
