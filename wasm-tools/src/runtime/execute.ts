/**
 * The one way a host runs a tool: params validated (defaults applied), inputs counted and
 * checked for emptiness and size, cancellation honoured, and every failure turned into a
 * ToolError with a code the job record can show.
 */
import { inputSize, ToolError, type RunContext, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import { getTool, type ToolEntry } from "../registry";
import { readsBlobsSync } from "./blob-reads";
import { errorMessage } from "./context";
import { checkParams } from "./params";

/** What a host may pass; missing pieces get a never-aborting signal and a silent progress sink. */
export type ExecuteContext = Partial<RunContext>;

/** Runs the tool `slug` on `inputs` with `params` (validated here) and returns its outputs. */
export async function execute(slug: string, inputs: ToolInput[], params: unknown, ctx: ExecuteContext = {}): Promise<ToolOutput[]> {
  const entry = getTool(slug);
  if (!entry) throw new ToolError("TOOL_FAILED", `Unknown tool "${slug}"`);
  return executeEntry(entry, inputs, params, ctx);
}

/** `execute` for an entry in hand (hosts that resolved the slug already; tests with stand-in tools). */
export async function executeEntry(entry: ToolEntry, inputs: ToolInput[], params: unknown, ctx: ExecuteContext = {}): Promise<ToolOutput[]> {
  const { manifest } = entry;
  const slug = manifest.slug;
  const signal = ctx.signal ?? new AbortController().signal;
  const report = ctx.onProgress;
  const onProgress = (fraction: number, message?: string) => report?.(Math.min(1, Math.max(0, fraction)), message);
  if (signal.aborted) throw cancelled();

  const checked = checkParams(manifest.params, params);
  if (!checked.ok) throw new ToolError("PARAMS_INVALID", checked.message);

  const min = manifest.io.minInputs ?? 1;
  const max = manifest.io.maxInputs ?? 1;
  if (inputs.length === 0) throw new ToolError("INPUT_EMPTY", `${manifest.title} needs ${describeCount(min, max)}; none was given`);
  if (inputs.length < min || inputs.length > max) {
    throw new ToolError("INPUT_INVALID", `${manifest.title} takes ${describeCount(min, max)}; ${inputs.length} were given`);
  }
  for (const input of inputs) {
    // Bytes that are only the file's head would be read as the whole file by any other tool.
    if (input.path && !manifest.io.hostFiles) throw new ToolError("TOOL_FAILED", `${slug} reads its inputs as bytes; the host gave "${input.name}" as a file`);
    const size = inputSize(input);
    if (size === 0) throw new ToolError("INPUT_EMPTY", `Input "${input.name}" is empty (0 bytes)`);
    const limit = manifest.limits?.maxInputBytes;
    if (limit !== undefined && size > limit) {
      throw new ToolError("INPUT_TOO_LARGE", `Input "${input.name}" is ${size} bytes; ${manifest.slug} accepts at most ${limit}`);
    }
  }

  const running = (async () => {
    const given = await Promise.all(inputs.map((input) => readBlobUnlessMounted(input, manifest.io.blobInputs === true)));
    const { run } = await entry.load();
    const places = { ...(ctx.outputDir ? { outputDir: ctx.outputDir } : {}), ...(ctx.outputFolder ? { outputFolder: ctx.outputFolder } : {}) };
    return run(given, checked.params, { signal, onProgress, ...places });
  })();
  let outputs: ToolOutput[];
  try {
    // A run on host files releases them before it answers; elsewhere (a browser) an abort answers at once.
    const onHost = ctx.outputDir !== undefined || inputs.some((i) => i.path);
    outputs = await raceAbort(running, signal, onHost ? ABORT_GRACE_MS : 0);
  } catch (err) {
    if (signal.aborted) throw cancelled();
    if (err instanceof ToolError) throw err;
    const wrapped = new ToolError("TOOL_FAILED", `${slug} failed: ${errorMessage(err)}`);
    (wrapped as Error).cause = err;
    throw wrapped;
  }
  if (signal.aborted) throw cancelled();
  onProgress(1);
  return apartFromInputs(outputs, inputs, slug);
}

/**
 * Outputs renamed where a name equals an input's (case aside), so a download never overwrites
 * its source: `places.geojson` from gis.convert becomes `places-convert.geojson`.
 */
export function apartFromInputs(outputs: ToolOutput[], inputs: ToolInput[], slug: string): ToolOutput[] {
  const taken = new Set([...inputs, ...outputs].map((f) => f.name.toLowerCase()));
  const verb = slug.slice(slug.indexOf(".") + 1);
  return outputs.map((o) => {
    if (!inputs.some((i) => i.name.toLowerCase() === o.name.toLowerCase())) return o;
    const dot = o.name.lastIndexOf(".");
    const [stem, ext] = dot > 0 ? [o.name.slice(0, dot), o.name.slice(dot)] : [o.name, ""];
    let name = `${stem}-${verb}${ext}`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}-${verb}-${n}${ext}`;
    taken.add(name.toLowerCase());
    return { ...o, name };
  });
}

/**
 * An input given as a Blob, as its tool reads it: read lazily by an io.blobInputs tool where the
 * host reads Blobs synchronously (a Web Worker: WORKERFS and mupdf's Stream need FileReaderSync),
 * else read whole into bytes.
 */
async function readBlobUnlessMounted(input: ToolInput, mountsBlobs: boolean): Promise<ToolInput> {
  if (!input.blob || (mountsBlobs && readsBlobsSync())) return input;
  const { blob, size: _size, ...rest } = input;
  return { ...rest, bytes: new Uint8Array(await blob.arrayBuffer()) };
}

function cancelled(): ToolError {
  return new ToolError("CANCELLED", "The run was cancelled");
}

function describeCount(min: number, max: number): string {
  if (min === max) return min === 1 ? "exactly one input file" : `exactly ${min} input files`;
  if (!Number.isFinite(max)) return `at least ${min} input files`;
  return `${min} to ${max} input files`;
}

/**
 * How long an aborted run on host files gets to finish its own clean-up (an ffmpeg session waits
 * for its host calls under way, then ends its worker) before CANCELLED is answered anyway: a
 * caller that sees CANCELLED then finds no host file open, and a tool that never settles still
 * returns control.
 */
export const ABORT_GRACE_MS = 1_000;

/**
 * Settles with `work` (the caller answers CANCELLED if the signal aborted meanwhile), or rejects
 * `graceMs` after `signal` aborts while `work` has not settled.
 */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      if (graceMs === 0) reject(cancelled());
      else grace = setTimeout(() => reject(cancelled()), graceMs);
    };
    const done = () => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(grace);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (err: unknown) => {
        done();
        reject(err);
      },
    );
  });
}
