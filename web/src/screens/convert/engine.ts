/**
 * Where a conversion runs. This device (the Web Worker) when the tool runs in the browser, every
 * file is within `processing.browser_max_mb` and the tool's own limit, and the memory the tool
 * needs for it (its measured memory per input byte, tools/memory.ts) fits what this device can
 * give a tab; the server when a file is bigger or needs more, when the tool only runs there, when
 * this device failed to run it, or when the person picks it. The server needs a network, a signed-in account, `processing.cloud_enabled`
 * and files within the tool's limit there; a file over both limits says why neither can run it.
 */
import { formatSize } from "@vektor/shared/tools/limits";
import type { ToolInfo } from "../../tools/catalog";
import { memoryProblem } from "../../tools/memory";

export type Engine = "device" | "server";

export const ENGINE_NAMES: Record<Engine, string> = { device: "This device", server: "Server" };
/** How the status names the engine that ran: "Done on this device", "Done on the server". */
export const ENGINE_PLACES: Record<Engine, string> = { device: "this device", server: "the server" };

export interface EngineFacts {
  tool: ToolInfo | undefined;
  sizes: number[];
  browserMaxBytes: number;
  /** The memory this device can give a tab (tools/memory.ts deviceMemoryBudget). */
  memoryBudget: number;
  /** This device failed to run the tool (worker crashed or ran out of memory). */
  deviceFailed: boolean;
}

export interface Choice {
  engine: Engine;
  /** Why, in words, for the hint under the choice. */
  reason: string;
}

const biggestOf = (sizes: readonly number[]) => Math.max(0, ...sizes);

/** The largest file this device runs `tool` on automatically: its own limit within `processing.browser_max_mb`. */
export function deviceLimit(tool: ToolInfo, browserMaxBytes: number): number {
  return Math.min(tool.maxInputBytes ?? Infinity, browserMaxBytes);
}

/**
 * Why one run of `tool` on these files needs more memory than `budget`, or null: a tool that takes
 * several files runs once over all of them, one that takes one runs once per file.
 */
export function runMemoryProblem(tool: ToolInfo, sizes: readonly number[], budget: number): string | null {
  if (tool.maxInputs > 1 && sizes.length > 1) {
    const total = sizes.reduce((sum, n) => sum + n, 0);
    return memoryProblem(tool, total, budget, `these ${sizes.length} files (${formatSize(total)})`);
  }
  return memoryProblem(tool, biggestOf(sizes), budget);
}

/** The engine chosen automatically. */
export function autoEngine({ tool, sizes, browserMaxBytes, memoryBudget, deviceFailed }: EngineFacts): Choice {
  if (!tool) return { engine: "device", reason: "Your files stay on this device." };
  if (!tool.onDevice) return { engine: "server", reason: `${tool.title} runs on the server only.` };
  if (deviceFailed) return { engine: "server", reason: "This device could not run it; the server can." };
  const limit = deviceLimit(tool, browserMaxBytes);
  if (biggestOf(sizes) > limit) return { engine: "server", reason: `A file is over ${formatSize(limit)}, the most this device runs.` };
  const memory = runMemoryProblem(tool, sizes, memoryBudget);
  if (memory) return { engine: "server", reason: memory };
  return { engine: "device", reason: "Your files stay on this device." };
}

export interface ServerFacts {
  online: boolean;
  signedIn: boolean;
  cloudEnabled: boolean;
  tool: ToolInfo | undefined;
  /** The chosen files' sizes (none: not checked against the server's limit). */
  sizes?: readonly number[];
}

/** Why the server cannot take this run now, or null when it can. */
export function serverBlocked({ online, signedIn, cloudEnabled, tool, sizes = [] }: ServerFacts): string | null {
  if (!online) return "The server needs a network connection; you are offline.";
  if (!cloudEnabled) return "Running tools on the server is turned off on this installation.";
  if (tool && !tool.onServer) return `${tool.title} does not run on the server.`;
  if (tool?.serverMaxBytes !== undefined && biggestOf(sizes) > tool.serverMaxBytes) return `A file is over ${formatSize(tool.serverMaxBytes)}, the most the server takes for ${tool.title}.`;
  if (!signedIn) return "Sign in to run tools on the server.";
  return null;
}

/** Where the bytes go with `engine`, whichever way it was chosen: what the privacy hint says. */
export const ENGINE_WHERE: Record<Engine, string> = {
  device: "Your files stay on this device.",
  server: "Your files are uploaded to the server and run there.",
};

/**
 * The hint under the choice, about the engine in use (not the automatic one): why it cannot run,
 * else where the files go, with the automatic choice's reason when that is what picked the server.
 */
export function engineHint(engine: Engine, auto: Choice, blocked: string | null): string {
  if (blocked) return blocked;
  if (engine === "server" && auto.engine === "server") return `${auto.reason} ${ENGINE_WHERE.server}`;
  return ENGINE_WHERE[engine];
}

/**
 * Why this device cannot take this run, or null when it can: the tool does not run here, or a
 * file is over the tool's own limit (`processing.browser_max_mb` only steers the automatic choice).
 */
export function deviceBlocked(tool: ToolInfo | undefined, sizes: readonly number[] = []): string | null {
  if (tool && !tool.onDevice) return `${tool.title} does not run in this browser.`;
  if (tool?.maxInputBytes !== undefined && biggestOf(sizes) > tool.maxInputBytes) return `A file is over ${formatSize(tool.maxInputBytes)}, the most ${tool.title} takes in this browser.`;
  return null;
}

/** Errors after which the server is offered: the worker could not start, crashed, or ran out of memory. */
export function deviceGaveUp(code: string, message: string): boolean {
  return code === "WORKER_CRASHED" || /out of memory|memory access out of bounds|allocation failed/i.test(message);
}
