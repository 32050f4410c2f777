/**
 * Small helpers every run.ts shares: cancellation checkpoints, output records, file-name stems.
 * Pure: no DOM, no Node globals.
 */
import { mimeOf, type FormatId } from "@vektor/shared/formats";
import { ToolError, type RunContext, type ToolOutput } from "@vektor/shared/tools/manifest";

/** Throws ToolError CANCELLED when the caller aborted; call it between units of work. */
export function checkpoint(ctx: RunContext): void {
  if (ctx.signal.aborted) throw new ToolError("CANCELLED", "The run was cancelled");
}

/** How much work may run between two yields: short enough that a cancel lands promptly. */
const YIELD_EVERY_MS = 16;
let lastYield = 0;

/**
 * Yields to the event loop (so an abort message can land) when the last yield is more than
 * YIELD_EVERY_MS ago, then checks for cancellation. Yielding on every call cost ~1 ms each
 * (timers are clamped), which tripled the time of per-page tools on short pages.
 */
export async function yieldAndCheck(ctx: RunContext): Promise<void> {
  const now = performance.now();
  if (now - lastYield >= YIELD_EVERY_MS) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    lastYield = performance.now();
  }
  checkpoint(ctx);
}

/** An output record with the format's primary MIME type. */
export function output(name: string, format: FormatId, bytes: Uint8Array): ToolOutput {
  return { name, bytes, mime: mimeOf(format) };
}

/** `report.final.pdf` -> `report.final`; names without an extension stay as they are. */
export function stem(name: string): string {
  const base = name.split(/[\\/]/).pop() || "output";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** JSON output bytes, pretty-printed for people reading the file. */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** The message of anything thrown (WASM runtimes also throw numbers and strings). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
