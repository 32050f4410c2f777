/**
 * Where a workflow run goes: this device (the browser runs the graph with the tool worker) or
 * the server, chosen automatically and always with the reason. The server is chosen when a
 * step cannot run in a browser (an approval that times out, a trigger other than manual, files
 * stored on the server, a tool that runs on the server only, a kind the browser does not know),
 * when a file is bigger than `processing.browser_max_mb`, when a step's tool would need more
 * memory for the biggest file than this device can give a tab (its measured memory per input
 * byte, tools/memory.ts: that only steers the automatic choice), when the tool worker cannot
 * load, or when the person picks it.
 */
import type { Graph } from "@vektor/shared/schemas/workflow";
import { SOURCE_TYPE } from "@vektor/shared/workflows/kinds";
import { memoryProblem, type MemoryFacts } from "../../tools/memory";

export type RunEngine = "device" | "server";

export const RUN_ENGINE_NAMES: Record<RunEngine, string> = { device: "This device", server: "Server" };

/** A node as the choice reads it: its type, params and the title a person knows it by. */
export interface ChoiceNode {
  id: string;
  type: string;
  params: Record<string, unknown>;
  title: string;
}

/** Kinds the runner executes itself (op.<tool> nodes are asked about their tool). */
const DEVICE_KINDS = new Set(["trigger.manual", SOURCE_TYPE, "op.workflow", "logic.filter", "logic.merge", "logic.approval", "sink.download", "sink.zip", "sink.rename"]);

/**
 * Why this node cannot run in the browser, or null when it can. `toolOnDevice(slug)`: whether
 * the device's tool worker offers the tool (undefined while unknown: assumed it does).
 */
export function nodeBlocker(node: ChoiceNode, toolOnDevice: (slug: string) => boolean | undefined): string | null {
  const step = `Step "${node.title}"`;
  if (node.type === "logic.approval" && node.params.timeoutSeconds !== undefined) return `${step} waits for an approval with a timeout, which only the server keeps.`;
  if (node.type.startsWith("trigger.") && node.type !== "trigger.manual") return `${step} starts runs from the server (${node.type.slice("trigger.".length)}); this device runs manual starts only.`;
  if (node.type === SOURCE_TYPE && ((node.params.fileIds as unknown[] | undefined)?.length || node.params.sinceLastRun)) return `${step} takes files stored on the server.`;
  if (node.type.startsWith("op.") && node.type !== "op.workflow") return toolOnDevice(node.type.slice(3)) === false ? `${step} runs on the server only.` : null;
  if (!DEVICE_KINDS.has(node.type)) return `${step} (${node.type}) does not run in this browser.`;
  return null;
}

export interface RunChoiceFacts {
  nodes: readonly ChoiceNode[];
  toolOnDevice: (slug: string) => boolean | undefined;
  /** Sizes of the files picked for this device. */
  sizes: readonly number[];
  browserMaxBytes: number;
  /** The memory this device can give a tab (tools/memory.ts deviceMemoryBudget). */
  memoryBudget: number;
  /** A tool's memory facts from the device's manifests (undefined while unknown: not checked). */
  toolMemory: (slug: string) => MemoryFacts | undefined;
  /** Why the tool worker cannot load here, or null when it can (or is still starting). */
  workerError: string | null;
}

export interface RunChoice {
  engine: RunEngine;
  reason: string;
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Why this device cannot take the run, or null when it can. */
export function deviceBlocked(facts: RunChoiceFacts): string | null {
  if (facts.workerError) return `The tool worker cannot load in this browser (${facts.workerError}).`;
  for (const node of facts.nodes) {
    const blocker = nodeBlocker(node, facts.toolOnDevice);
    if (blocker) return blocker;
  }
  if (Math.max(0, ...facts.sizes) > facts.browserMaxBytes) return `A file is over ${mb(facts.browserMaxBytes)}, the most this device runs (processing.browser_max_mb).`;
  return null;
}

/**
 * Why a step's tool would need more memory than this device can give a tab, or null. Each step is
 * checked against the biggest picked file: what the first steps take, and a fair guess for later
 * ones, whose inputs are earlier steps' outputs.
 */
export function memoryShort(facts: RunChoiceFacts): string | null {
  const biggest = Math.max(0, ...facts.sizes);
  for (const node of facts.nodes) {
    const tool = node.type.startsWith("op.") ? facts.toolMemory(node.type.slice(3)) : undefined;
    // A run on this device gives each tool its file as a Blob, as Convert does (runner/core.ts): the tool's figure holds.
    const problem = tool && memoryProblem(tool, biggest, facts.memoryBudget);
    if (problem) return problem;
  }
  return null;
}

/** The engine chosen automatically, with its reason. */
export function autoRunEngine(facts: RunChoiceFacts): RunChoice {
  const blocked = deviceBlocked(facts) ?? memoryShort(facts);
  if (blocked) return { engine: "server", reason: `Runs on the server: ${blocked}` };
  return { engine: "device", reason: "Runs on this device: your files are not uploaded and the run costs no credits." };
}

/** The reason when the person picked the engine. */
export function pickReason(engine: RunEngine): string {
  return engine === "device" ? "You picked this device: your files are not uploaded and the run costs no credits." : "You picked the server: your files are uploaded and the run is charged.";
}

/** The graph's nodes as the choice reads them (`titleOf`: a kind's catalog title). */
export function choiceNodes(graph: Graph, titleOf: (type: string) => string): ChoiceNode[] {
  return graph.nodes.map((n) => ({ id: n.id, type: n.type, params: n.data.params ?? {}, title: titleOf(n.type) }));
}
