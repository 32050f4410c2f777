/**
 * The Convert screen's state as a reducer: the files and tool chosen, the options typed, the
 * engine picked, and one run at a time with its progress, status line, alert and results.
 * Pure (no React, no network): use-tool-run.ts performs the run and dispatches what happens;
 * `deriveRun` works out, from the state and what the app knows, which tools fit, where the run
 * goes and whether it can start.
 */
import { plural } from "../../components/format";
import { fieldsOf, type FieldSpec, type FieldValue } from "../../components/params-form";
import { countProblem, toolsFor, type ToolInfo } from "../../tools/catalog";
import { autoEngine, deviceBlocked, deviceGaveUp, ENGINE_PLACES, serverBlocked, type Choice, type Engine } from "./engine";
import type { Result } from "./runs";

/** The run under way: how to stop it, and what the status line calls it. */
export interface Running {
  controller: AbortController;
  title: string;
  engine: Engine;
}

export interface ToolRunState {
  files: File[];
  /** The tool picked; the first that fits the files when it does not (or none was picked). */
  slug: string;
  values: Record<string, FieldValue>;
  /** The engine the person picked, over the automatic choice. */
  picked: Engine | null;
  /** This device failed to run the tool on these files (the server is chosen from then on). */
  deviceFailed: boolean;
  running: Running | null;
  /** Percent. */
  progress: number;
  status: string;
  alert: string;
  results: Result[];
}

export type ToolRunAction =
  | { type: "catalog-settled"; count: number }
  | { type: "choose-files"; files: File[] }
  | { type: "choose-tool"; slug: string }
  | { type: "set-value"; key: string; value: FieldValue }
  | { type: "pick-engine"; engine: Engine }
  /** The options could not be read (the message names the field). */
  | { type: "refused"; message: string }
  | { type: "started"; running: Running }
  | { type: "progress"; fraction: number; message?: string }
  | { type: "finished"; results: Result[]; ms: number }
  /** `serverBlocked`: why the server cannot take the run instead, or null. */
  | { type: "failed"; code: string; message: string; serverBlocked: string | null };

const LOADING = "Loading the tool list…";

export const initialToolRun = (): ToolRunState => ({
  files: [],
  slug: "",
  values: {},
  picked: null,
  deviceFailed: false,
  running: null,
  progress: 0,
  status: LOADING,
  alert: "",
  results: [],
});

export function toolRun(state: ToolRunState, action: ToolRunAction): ToolRunState {
  switch (action.type) {
    case "catalog-settled":
      return state.status === LOADING ? { ...state, status: `${action.count} tools available.` } : state;
    case "choose-files":
      // New files: the automatic engine again, nothing left of the last failure.
      return state.running ? state : { ...state, files: action.files, picked: null, deviceFailed: false, alert: "" };
    case "choose-tool":
      return { ...state, slug: action.slug, values: {} };
    case "set-value":
      return { ...state, values: { ...state.values, [action.key]: action.value } };
    case "pick-engine":
      return { ...state, picked: action.engine };
    case "refused":
      return { ...state, alert: action.message };
    case "started": {
      const { title, engine } = action.running;
      return { ...state, running: action.running, alert: "", progress: 0, status: `Running ${title} on ${ENGINE_PLACES[engine]}…` };
    }
    case "progress":
      if (!state.running) return state;
      return { ...state, progress: Math.round(action.fraction * 100), status: action.message ? `${state.running.title}: ${action.message}` : state.status };
    case "finished": {
      if (!state.running) return state;
      const seconds = (action.ms / 1000).toFixed(1);
      const status = `Done on ${ENGINE_PLACES[state.running.engine]} in ${seconds} s: ${plural(action.results.length, "file")} ready to download.`;
      return { ...state, running: null, progress: 100, results: action.results, status };
    }
    case "failed":
      return state.running ? { ...state, running: null, ...failure(state.running, action) } : state;
  }
}

/** What a failed run leaves: cancelled, or failed with the reason, and the server offered when this device gave up. */
function failure({ title, engine }: Running, { code, message, serverBlocked }: Extract<ToolRunAction, { type: "failed" }>): Partial<ToolRunState> {
  if (code === "CANCELLED") return { status: "Cancelled." };
  const status = `Failed on ${ENGINE_PLACES[engine]}.`;
  if (engine === "device" && deviceGaveUp(code, message))
    return { status, deviceFailed: true, picked: null, alert: `This device could not run ${title}: ${message}. ${serverBlocked ?? "Press Run to run it on the server."}` };
  return { status, alert: message };
}

/** What the app knows besides the screen's state: the tools, the limits, the network and the session. */
export interface RunFacts {
  tools: ToolInfo[];
  browserMaxBytes: number;
  cloudEnabled: boolean;
  online: boolean;
  signedIn: boolean;
}

export interface RunPlan {
  /** The tools that take these files. */
  choices: ToolInfo[];
  tool: ToolInfo | undefined;
  fields: FieldSpec[];
  /** The automatic engine and why. */
  auto: Choice;
  /** Why each engine cannot take the run, or null. */
  blocked: Record<Engine, string | null>;
  engine: Engine;
  /** Why the tool cannot take this many files, or null. */
  problem: string | null;
  canRun: boolean;
}

export function deriveRun(state: ToolRunState, facts: RunFacts): RunPlan {
  const choices = toolsFor(facts.tools, state.files);
  const tool = choices.find((t) => t.slug === state.slug) ?? choices[0];
  const auto = autoEngine({ tool, sizes: state.files.map((f) => f.size), browserMaxBytes: facts.browserMaxBytes, deviceFailed: state.deviceFailed });
  const blocked = { device: deviceBlocked(tool), server: serverBlocked({ online: facts.online, signedIn: facts.signedIn, cloudEnabled: facts.cloudEnabled, tool }) };
  const engine = state.picked ?? auto.engine;
  const problem = tool ? countProblem(tool, state.files.length) : null;
  const canRun = Boolean(tool) && !problem && !state.running && blocked[engine] === null;
  return { choices, tool, fields: tool ? fieldsOf(tool.params) : [], auto, blocked, engine, problem, canRun };
}
