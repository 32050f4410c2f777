/**
 * The web app as a person uses it, found by role and label: choose files, choose a tool, set
 * its options, run, and collect the downloads.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { choiceLabel, humanize } from "../../web/src/components/params-form";

export const WEB_DIST = join(import.meta.dir, "..", "..", "web", "dist");

/** Fails early, with the fix, when the web app was not built. */
export function requireWebBuild(): void {
  if (!existsSync(join(WEB_DIST, "index.html"))) throw new Error(`${WEB_DIST} is missing: build it with \`cd web && bun run build\` (npm test does)`);
}

export interface FileSpec {
  name: string;
  mime: string;
  bytes: Uint8Array;
}

export interface Download {
  name: string;
  bytes: Uint8Array;
}


/** Sets each param through its form control (select, checkbox, number or text box, JSON box). */
export async function fillParams(page: Page, params: Record<string, unknown>): Promise<void> {
  const options = page.getByRole("group", { name: "Options" });
  for (const [key, value] of Object.entries(params)) {
    const label = humanize(key);
    const plain = options.getByLabel(label, { exact: true });
    const control = (await plain.count()) > 0 ? plain : options.getByLabel(`${label} (JSON)`, { exact: true });
    const kind = await control.evaluate((el) => (el instanceof HTMLSelectElement ? "select" : el instanceof HTMLTextAreaElement ? "json" : (el as HTMLInputElement).type));
    if (kind === "select") await control.selectOption({ label: choiceLabel(value) });
    else if (kind === "checkbox") await control.setChecked(Boolean(value));
    else if (kind === "json") await control.fill(JSON.stringify(value));
    else await control.fill(String(value));
  }
}

/** Chooses `files` and `slug`, sets `params`, and presses Run (does not wait for the end). */
export async function startTool(page: Page, files: FileSpec[], slug: string, params: Record<string, unknown>): Promise<void> {
  await page.getByLabel("Files", { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mime, buffer: Buffer.from(f.bytes) })));
  await page.getByLabel("Tool", { exact: true }).selectOption(slug);
  await fillParams(page, params);
  await page.getByRole("button", { name: "Run" }).click();
}

/** Waits for the run to end: the status says Done (returns), or an alert says why not (throws). */
export async function waitForDone(page: Page, timeoutMs = 60_000): Promise<void> {
  const status = page.getByRole("status");
  const alert = page.getByRole("alert");
  await page.waitForFunction(() => /^(Done|Failed|Cancelled)/.test(document.querySelector("[role=status]")?.textContent ?? ""), null, { timeout: timeoutMs });
  const text = (await status.textContent()) ?? "";
  if (!text.startsWith("Done")) throw new Error(`the run ended with "${text}": ${(await alert.textContent()) ?? ""}`);
}

/** Clicks every download link under Results and returns the files, in order. */
export async function downloadResults(page: Page): Promise<Download[]> {
  const links = page.getByRole("region", { name: "Results" }).getByRole("link");
  const out: Download[] = [];
  for (let i = 0; i < (await links.count()); i++) {
    const [download] = await Promise.all([page.waitForEvent("download"), links.nth(i).click()]);
    const path = await download.path();
    out.push({ name: download.suggestedFilename(), bytes: new Uint8Array(readFileSync(path)) });
  }
  return out;
}

/**
 * The engine is chosen once the thresholds and the tool's support are known: waits up to 30 s for
 * `name` to be the choice of the "Run on" group, then fails unless it is.
 */
export async function engineChosen(page: Page, name: "This device" | "Server"): Promise<void> {
  const radio = page.getByRole("radio", { name });
  for (const deadline = Date.now() + 30_000; !(await radio.isChecked()) && Date.now() < deadline; ) await Bun.sleep(50);
  if (await radio.isChecked()) return;
  const alert = (await page.getByRole("alert").first().textContent().catch(() => null)) ?? "";
  throw new Error(`"${name}" was not chosen to run the tool within 30 s${alert ? `; the page says: ${alert}` : ""}`);
}

/** Picks `path` (streamed from disk by Playwright, not held here) and runs `slug` on it on this device, to the end. */
export async function runOnDevice(page: Page, path: string, slug: string, params: Record<string, unknown>): Promise<void> {
  await page.getByLabel("Files", { exact: true }).setInputFiles(path);
  await page.getByLabel("Tool", { exact: true }).selectOption(slug);
  await fillParams(page, params);
  await engineChosen(page, "This device");
  await page.getByRole("button", { name: "Run" }).click();
  await waitForDone(page, 600_000);
  if (!(await page.getByRole("status").textContent())?.startsWith("Done on this device")) throw new Error(`${slug} did not finish on this device`);
}

/** Chromium's processes of `type` (its renderers, or the browser process), by pid: the browser's own process list, through CDP. */
export async function chromiumPids(browser: Browser, type: "renderer" | "browser"): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] };
    return processInfo.filter((p) => p.type === type).map((p) => p.id);
  } finally {
    await cdp.detach();
  }
}

/** A process's peak (VmHWM, since its last reset through /proc/<pid>/clear_refs) or current (VmRSS) memory, in bytes. */
export function processBytes(pid: number, field: "VmHWM" | "VmRSS"): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
}

/** Sets a process's peak (VmHWM) back to what it holds now, so the next peak is one run's (Linux, same user). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** A process's memory as `peak N MB, now N MB`: for the record only. */
export function processMemory(pid: number): string {
  const mb = (field: "VmHWM" | "VmRSS") => Math.round(processBytes(pid, field) / (1024 * 1024));
  try {
    return `peak ${mb("VmHWM")} MB, now ${mb("VmRSS")} MB`;
  } catch {
    return "not readable";
  }
}

/** The renderer processes' memory (VmHWM: peak, VmRSS: now) in MB, through the browser's process list: for the record only. */
export async function rendererMemory(browser: Browser): Promise<string> {
  return (await chromiumPids(browser, "renderer")).map((pid) => `pid ${pid}: ${processMemory(pid)}`).join("; ");
}
