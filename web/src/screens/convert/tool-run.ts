/**
 * The Convert screen's state as a reducer: the files and tool chosen, the options typed, the
 * engine picked, and one run at a time with its progress, status line, alert and results.
 * Pure (no React, no network): use-tool-run.ts performs the run and dispatches what happens;
 * `deriveRun` works out, from the state and what the app knows, which tools fit, where the run
 * goes and whether it can start.
 *
 * A run is one or more units: several files with a tool that takes one file run it once per file
 * (a local batch, each file with its own progress); otherwise one unit over all the files.
 */
import { plural } from "../../components/format";
import { fieldsOf, type FieldSpec, type FieldValue } from "../../components/params-form";
import { candidateFormats } from "@vektor/shared/formats";
import { countProblem, toolsFor, type NamedFile, type ToolInfo } from "../../tools/catalog";
import { autoEngine, deviceBlocked, deviceGaveUp, engineHint, ENGINE_PLACES, serverBlocked, type Choice, type Engine } from "./engine";
import type { Result } from "./runs";

/** The run under way: how to stop it, and what the status line calls it. */
export interface Running {
  controller: AbortController;
  title: string;
  engine: Engine;
}

/** One unit of a run (a file of a per-file run): its progress and how it ended. */
export interface UnitState {
  name: string;
  /** Percent. */
  progress: number;
  state: "waiting" | "running" | "done" | "failed";
  /** Why it failed. */
  message: string;
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
  /** How many tools the app knows (null while loading): the status line of a clean slate. */
  toolCount: number | null;
  running: Running | null;
  /** The units of the current or last run (one per file of a per-file run, else one). */
  units: UnitState[];
  /** Percent, over all units. */
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
  /** `units`: the name of each unit, in the order they run. */
  | { type: "started"; running: Running; units: string[] }
  | { type: "progress"; fraction: number; message?: string; unit?: number }
  /** A unit ended with its results (`source` set on each when the run is per file). */
  | { type: "unit-done"; unit: number; results: Result[] }
  /** A unit of a per-file run failed; the others go on. */
  | { type: "unit-failed"; unit: number; message: string }
  /** Every unit has ended. */
  | { type: "finished"; ms: number }
  /** The run ended early: cancelled, or its only unit failed. `serverBlocked`: why the server cannot take the run instead, or null. */
  | { type: "failed"; code: string; message: string; serverBlocked: string | null };

const LOADING = "Loading the tool list…";

export const initialToolRun = (): ToolRunState => ({
  files: [],
  slug: "",
  values: {},
  picked: null,
  deviceFailed: false,
  toolCount: null,
  running: null,
  units: [],
  progress: 0,
  status: LOADING,
  alert: "",
  results: [],
});

const readyLine = (count: number | null) => (count === null ? LOADING : `${count} tools available.`);

/** A new choice of files or tool: nothing of the last run is left on screen (results, bar, status, alert). */
const cleanSlate = (state: ToolRunState): ToolRunState => ({ ...state, units: [], progress: 0, status: readyLine(state.toolCount), alert: "", results: [] });

export function toolRun(state: ToolRunState, action: ToolRunAction): ToolRunState {
  switch (action.type) {
    case "catalog-settled":
      return state.status === LOADING ? { ...state, toolCount: action.count, status: readyLine(action.count) } : { ...state, toolCount: action.count };
    case "choose-files":
      // New files: the automatic engine again, nothing left of the last run or its failure.
      return state.running ? state : { ...cleanSlate(state), files: action.files, picked: null, deviceFailed: false };
    case "choose-tool":
      return state.running ? state : { ...cleanSlate(state), slug: action.slug, values: {} };
    case "set-value":
      return { ...state, values: { ...state.values, [action.key]: action.value } };
    case "pick-engine":
      return { ...state, picked: action.engine };
    case "refused":
      return { ...state, alert: action.message };
    case "started": {
      const { title, engine } = action.running;
      const units = action.units.map((name): UnitState => ({ name, progress: 0, state: "waiting", message: "" }));
      return { ...state, running: action.running, units, results: [], alert: "", progress: 0, status: `Running ${title} on ${ENGINE_PLACES[engine]}…` };
    }
    case "progress":
      // A unit's progress may arrive after its end (the worker's last message crosses its answer).
      return state.running && !ended(state.units[action.unit ?? 0]) ? progressed(state, state.running, action) : state;
    case "unit-done":
      if (!state.running) return state;
      return { ...withUnit(state, action.unit, { progress: 100, state: "done" }), results: [...state.results, ...action.results] };
    case "unit-failed":
      return state.running ? withUnit(state, action.unit, { state: "failed", message: action.message }) : state;
    case "finished":
      return state.running ? { ...state, running: null, progress: 100, ...summary(state, state.running, action.ms) } : state;
    case "failed":
      return state.running ? { ...state, running: null, ...failure(state.running, action) } : state;
  }
}

const ended = (unit: UnitState | undefined) => unit?.state === "done" || unit?.state === "failed";

/** `state` with unit `index` changed and the overall bar the mean of the units'. */
function withUnit(state: ToolRunState, index: number, change: Partial<UnitState>): ToolRunState {
  const units = state.units.map((u, i) => (i === index ? { ...u, ...change } : u));
  const progress = units.length ? Math.round(units.reduce((sum, u) => sum + u.progress, 0) / units.length) : state.progress;
  return { ...state, units, progress };
}

function progressed(state: ToolRunState, { title }: Running, { fraction, message, unit = 0 }: Extract<ToolRunAction, { type: "progress" }>): ToolRunState {
  const next = withUnit(state, unit, { progress: Math.round(fraction * 100), state: "running" });
  if (state.units.length <= 1) return { ...next, progress: Math.round(fraction * 100), status: message ? `${title}: ${message}` : state.status };
  const which = `${title}, file ${unit + 1} of ${state.units.length} (${state.units[unit]?.name})`;
  return { ...next, status: message ? `${which}: ${message}` : `${which}…` };
}

/** The status and alert at the end of a run: the files ready, and which units failed and why. */
function summary(state: ToolRunState, { engine }: Running, ms: number): Partial<ToolRunState> {
  const place = ENGINE_PLACES[engine];
  const failed = state.units.filter((u) => u.state === "failed");
  const alert = failed.map((u) => `${u.name}: ${u.message}`).join("\n");
  if (failed.length > 0 && failed.length === state.units.length) return { status: `Failed on ${place}.`, alert };
  const seconds = (ms / 1000).toFixed(1);
  const some = failed.length ? ` ${failed.length} of ${plural(state.units.length, "file")} failed.` : "";
  return { status: `Done on ${place} in ${seconds} s: ${plural(state.results.length, "file")} ready to download.${some}`, alert };
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
  /** The memory this device can give a tab (tools/memory.ts). */
  memoryBudget: number;
  cloudEnabled: boolean;
  online: boolean;
  signedIn: boolean;
}

/** Once per file (several files, a tool that takes one), or once over all the files. */
export type RunMode = "each" | "all";

export interface RunPlan {
  /** The tools that take these files, once over all or once per file. */
  choices: ToolInfo[];
  tool: ToolInfo | undefined;
  mode: RunMode;
  fields: FieldSpec[];
  /** The automatic engine and why. */
  auto: Choice;
  /** Why each engine cannot take the run, or null. */
  blocked: Record<Engine, string | null>;
  /** The engine in use: the running one, else the one picked, else the automatic one. */
  engine: Engine;
  /** Where the files go with that engine (or why it cannot run). */
  engineHint: string;
  /** Why the tool cannot take this many files, or null. */
  problem: string | null;
  canRun: boolean;
}

/** How `tool` runs on `count` files: once over all when it takes that many, once per file when it takes one; else it does not. */
export function modeFor(tool: ToolInfo, count: number): RunMode | null {
  if (!countProblem(tool, count)) return count > 1 && tool.maxInputs === 1 ? "each" : "all";
  return count > 1 && tool.minInputs <= 1 ? "each" : null;
}

export function deriveRun(state: ToolRunState, facts: RunFacts): RunPlan {
  const count = state.files.length;
  const choices = toolsFor(facts.tools, state.files).filter((t) => modeFor(t, count) !== null);
  const tool = choices.find((t) => t.slug === state.slug) ?? choices[0];
  const mode = (tool && modeFor(tool, count)) || "all";
  const sizes = state.files.map((f) => f.size);
  const auto = autoEngine({ tool, sizes, browserMaxBytes: facts.browserMaxBytes, memoryBudget: facts.memoryBudget, deviceFailed: state.deviceFailed });
  const blocked = { device: deviceBlocked(tool, sizes), server: serverBlocked({ online: facts.online, signedIn: facts.signedIn, cloudEnabled: facts.cloudEnabled, tool, sizes }) };
  const engine = state.running?.engine ?? state.picked ?? auto.engine;
  const problem = tool && mode === "all" ? countProblem(tool, count) : null;
  const canRun = Boolean(tool) && !problem && !state.running && blocked[engine] === null;
  const hint = engineHint(engine, auto, state.running ? null : blocked[engine]);
  return { choices, tool, mode, fields: tool ? awayFromInput(fieldsOf(tool.params), tool, state.files) : [], auto, blocked, engine, engineHint: hint, problem, canRun };
}

/**
 * The fields, with a format choice whose default is the files' own format defaulting instead to
 * the first other format the tool writes (GeoJSON to GeoJSON is rarely what a person wants).
 */
export function awayFromInput(fields: FieldSpec[], tool: ToolInfo, files: NamedFile[]): FieldSpec[] {
  const own = new Set(files.flatMap((f) => candidateFormats(f.type, f.name).map((c): string => c.id).filter((id) => tool.accepts.includes(id)).slice(0, 1)));
  return fields.map((field) => {
    if (field.kind !== "choice" || !own.has(field.schema.default as string)) return field;
    const other = field.choices!.find((c) => typeof c === "string" && tool.produces.includes(c) && !own.has(c));
    return other === undefined ? field : { ...field, schema: { ...field.schema, default: other } };
  });
}
