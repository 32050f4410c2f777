/**
 * Where a conversion runs. This device (the Web Worker) when the tool runs in the browser and
 * every file is within `processing.browser_max_mb`; the server when a file is bigger, when the
 * tool only runs there, when this device failed to run it, or when the person picks it. The
 * server needs a network, a signed-in account and `processing.cloud_enabled`.
 */
import type { ToolInfo } from "../../tools/catalog";

export type Engine = "device" | "server";

export const ENGINE_NAMES: Record<Engine, string> = { device: "This device", server: "Server" };
/** How the status names the engine that ran: "Done on this device", "Done on the server". */
export const ENGINE_PLACES: Record<Engine, string> = { device: "this device", server: "the server" };

export interface EngineFacts {
  tool: ToolInfo | undefined;
  sizes: number[];
  browserMaxBytes: number;
  /** This device failed to run the tool (worker crashed or ran out of memory). */
  deviceFailed: boolean;
}

export interface Choice {
  engine: Engine;
  /** Why, in words, for the hint under the choice. */
  reason: string;
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The engine chosen automatically. */
export function autoEngine({ tool, sizes, browserMaxBytes, deviceFailed }: EngineFacts): Choice {
  if (!tool) return { engine: "device", reason: "Your files stay on this device." };
  if (!tool.onDevice) return { engine: "server", reason: `${tool.title} runs on the server only.` };
  if (deviceFailed) return { engine: "server", reason: "This device could not run it; the server can." };
  const biggest = Math.max(0, ...sizes);
  if (biggest > browserMaxBytes) return { engine: "server", reason: `A file is over ${mb(browserMaxBytes)}, the most this device runs.` };
  return { engine: "device", reason: "Your files stay on this device." };
}

export interface ServerFacts {
  online: boolean;
  signedIn: boolean;
  cloudEnabled: boolean;
  tool: ToolInfo | undefined;
}

/** Why the server cannot take this run now, or null when it can. */
export function serverBlocked({ online, signedIn, cloudEnabled, tool }: ServerFacts): string | null {
  if (!online) return "The server needs a network connection; you are offline.";
  if (!cloudEnabled) return "Running tools on the server is turned off on this installation.";
  if (tool && !tool.onServer) return `${tool.title} does not run on the server.`;
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

/** Why this device cannot take this run, or null when it can. */
export function deviceBlocked(tool: ToolInfo | undefined): string | null {
  if (tool && !tool.onDevice) return `${tool.title} does not run in this browser.`;
  return null;
}

/** Errors after which the server is offered: the worker could not start, crashed, or ran out of memory. */
export function deviceGaveUp(code: string, message: string): boolean {
  return code === "WORKER_CRASHED" || /out of memory|memory access out of bounds|allocation failed/i.test(message);
}
