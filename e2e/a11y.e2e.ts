/**
 * Accessibility of every screen: axe-core (WCAG 2 A and AA rules, colour contrast included) on
 * sign-in, then signed in as the admin on Convert, Files, Batches, Workflows, Approvals, Tokens,
 * Account and Admin, with no serious or critical violation (the workflow editor's are in workflows.e2e.ts,
 * the run pages' in workflow-runs.e2e.ts);
 * and the keyboard: Tab through Convert reaches the file input, the Tool select and Run, each
 * with a visible focus indicator.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { ADMIN_EMAIL, startTestServer, type TestServer } from "../server/test/harness";
import { seriousViolations } from "./support/axe";
import { signIn } from "./support/app";
import { closeAll, launchChromium, logPageErrors } from "./support/browser";
import { makePdf } from "./support/inputs";
import { requireWebBuild } from "./support/web";

let srv: TestServer;
let browser: Browser;
let page: Page;

/** Waits until the screen has its heading and nothing says it is still loading. */
async function settled(p: Page, heading: string): Promise<void> {
  await p.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor({ timeout: 30_000 });
  await p.waitForFunction(() => !/Loading/.test(document.querySelector("main")?.textContent ?? ""), null, { timeout: 30_000 });
}

const nav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer();
  const admin = await srv.admin();
  // Something in the lists, so tables and their rows are checked too.
  await admin.files.upload(new Blob([(await makePdf(1, "a11y")) as Uint8Array<ArrayBuffer>]), { filename: "a11y.pdf", mime: "application/pdf" });
  const [template] = await admin.workflows.templates.list();
  await admin.workflows.create({ name: "a11y workflow", graphJson: template!.graphJson });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  logPageErrors(page);
}, 120_000);

afterAll(() => closeAll(browser, srv));

describe("accessibility", () => {
  test("sign-in has no serious WCAG 2 A/AA violation", async () => {
    await page.goto(`${srv.url}/sign-in`);
    await settled(page, "Sign in");
    expect(await seriousViolations(page)).toEqual([]);
    await signIn(page, ADMIN_EMAIL);
  }, 120_000);

  for (const screen of ["Convert", "Files", "Batches", "Workflows", "Approvals", "Tokens", "Account", "Admin"]) {
    test(`${screen} has no serious WCAG 2 A/AA violation`, async () => {
      await nav(screen).click();
      await settled(page, screen);
      expect(await seriousViolations(page)).toEqual([]);
    }, 120_000);
  }

  test("the check itself: a low-contrast line added to the page is reported", async () => {
    await page.evaluate(() => {
      const p = document.createElement("p");
      p.id = "a11y-probe";
      p.textContent = "Grey on white";
      p.style.cssText = "color:#bbb;background:#fff";
      document.querySelector("main")!.append(p);
    });
    const found = await seriousViolations(page);
    await page.evaluate(() => document.getElementById("a11y-probe")?.remove());
    expect(found.find((v) => v.id === "color-contrast")?.nodes.map((n) => n.target.join(" "))).toEqual(["#a11y-probe"]);
  }, 120_000);

  test("keyboard: Tab through Convert reaches Files, Tool and Run, each with a visible focus indicator", async () => {
    await nav("Convert").click();
    await settled(page, "Convert");
    // Run is enabled (and so focusable) once a file and a tool are chosen.
    await page.getByLabel("Files", { exact: true }).setInputFiles({ name: "a.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf(1, "keys")) });
    await page.getByLabel("Tool", { exact: true }).selectOption("pdf.compress");
    await page.getByRole("button", { name: "Run" }).waitFor({ state: "visible", timeout: 30_000 });
    await page.waitForFunction(() => !(document.querySelector("button[type=submit]") as HTMLButtonElement | null)?.disabled, null, { timeout: 30_000 });
    // The screen with its options form shown passes too.
    expect(await seriousViolations(page)).toEqual([]);
    // Start from the top of the page, as a keyboard user arriving at it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const seen = new Map<string, { outline: string; shadow: string }>();
    for (let i = 0; i < 80 && seen.size < 3; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return null;
        const key = el.id === "files" ? "files" : el.id === "tool" ? "tool" : el instanceof HTMLButtonElement && el.textContent?.trim() === "Run" ? "run" : null;
        if (!key) return null;
        const style = getComputedStyle(el);
        return { key, outline: style.outlineStyle === "none" || style.outlineWidth === "0px" ? "none" : `${style.outlineStyle} ${style.outlineWidth}`, shadow: style.boxShadow };
      });
      if (focused) seen.set(focused.key, { outline: focused.outline, shadow: focused.shadow });
    }
    expect([...seen.keys()].sort()).toEqual(["files", "run", "tool"]);
    for (const [key, style] of seen) expect({ key, visible: style.outline !== "none" || style.shadow !== "none" }).toEqual({ key, visible: true });
  }, 120_000);
});
