/**
 * A tool's input limit where it runs: its manifest's `maxInputBytes` within what the host allows
 * (the server's TOOL_MAX_INPUT_MB, the browser's processing.browser_max_mb). The server checks it
 * when a job, batch item or workflow step is created; the web app chooses where to run with it.
 */
import type { ToolManifest } from "./manifest";

/** The largest input file `tool` takes on a host that allows at most `hostMaxBytes`. */
export function inputLimit(tool: Pick<ToolManifest, "limits">, hostMaxBytes: number): number {
  return Math.min(tool.limits?.maxInputBytes ?? Infinity, hostMaxBytes);
}

/** `1536` -> `1.5 KB`, `268435456` -> `256 MB` (binary units, as the limits are set). */
export function formatSize(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} bytes`;
  const shown = value < 10 && !Number.isInteger(value) ? value.toFixed(1) : String(Math.round(value));
  return `${shown} ${units[unit]}`;
}

/** Why `file` is too large for `slug` under `limit` (`where`: "on this server", "in this browser"), or null when it fits. */
export function sizeProblem(slug: string, file: { name: string; size: number }, limit: number, where: string): string | null {
  if (file.size <= limit) return null;
  return `"${file.name}" is ${formatSize(file.size)}; ${slug} takes files of at most ${formatSize(limit)} ${where}`;
}
