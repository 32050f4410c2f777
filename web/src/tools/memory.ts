/**
 * Whether this device has the memory to run a tool on a file: the tool's measured memory per
 * input byte (its manifest's `limits.memoryPerInputByte`) times the file, plus its engine's fixed
 * size, against what a browser tab can be given here. Pure; the page reads `navigator.deviceMemory`
 * through `deviceMemoryBudget()`.
 */
import { formatSize } from "@vektor/shared/tools/limits";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * What one tab may use, decided here because browsers do not say: half the device's memory when
 * the browser reports it (`navigator.deviceMemory`, Chromium only, in GB, rounded and capped at 8),
 * since the system and the other tabs need the rest; never more than 4 GiB, the most a 32-bit
 * WebAssembly memory can address; 1 GiB when the browser does not report it (Firefox, Safari),
 * low enough for a phone, where a tab is stopped long before a desktop's would be. The automatic
 * choice only: a person may still pick this device for a file over it.
 */
export function deviceMemoryBudget(reportedGb: number | undefined = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory): number {
  if (!reportedGb || !Number.isFinite(reportedGb) || reportedGb <= 0) return 1 * GiB;
  return Math.min(4 * GiB, (reportedGb * GiB) / 2);
}

/**
 * Each family's engine before any file: its WASM, its data and its heap once loaded, from the
 * peak RSS of a small run less the input's share and Bun's own (bench/tools-big/per-byte.ts).
 * A family not listed counts DEFAULT_ENGINE_BYTES.
 */
export const ENGINE_BYTES: Record<string, number> = {
  gis: 220 * MiB,
  pdf: 90 * MiB,
  cad: 190 * MiB,
  bim: 100 * MiB,
  pcb: 40 * MiB,
  drawing: 150 * MiB,
  mesh: 64 * MiB,
};
const DEFAULT_ENGINE_BYTES = 128 * MiB;

/** A tool as far as its memory goes. */
export interface MemoryFacts {
  title: string;
  family: string;
  /** Its manifest's `limits.memoryPerInputByte` (absent: not measured, not checked). */
  memoryPerInputByte?: number;
  /** Its manifest's `io.blobInputs`: the tool reads the picked File itself (mounted, or a piece at a time), and its figure was measured so, not on whole bytes. */
  blobInputs?: boolean;
}

/** About how much memory `tool` needs for `bytes` of input, or null when its figure is not known. */
export function memoryNeed(tool: MemoryFacts, bytes: number): number | null {
  if (tool.memoryPerInputByte === undefined) return null;
  return (ENGINE_BYTES[tool.family] ?? DEFAULT_ENGINE_BYTES) + bytes * tool.memoryPerInputByte;
}

/**
 * Why this device lacks the memory for `tool` on `bytes` of input (one run's), in plain words,
 * or null when it fits `budget` (or the tool's figure is not known).
 */
export function memoryProblem(tool: MemoryFacts, bytes: number, budget: number, what = `this ${formatSize(bytes)} file`): string | null {
  const need = memoryNeed(tool, bytes);
  if (need === null || need <= budget) return null;
  return `${tool.title} on ${what} needs about ${formatSize(need)} of memory, more than this device can give a tab (about ${formatSize(budget)}).`;
}
