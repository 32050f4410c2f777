/**
 * Runs a family's browser bundle outside a browser: the family is bundled with `bun build
 * --target=browser`, then run in a Bun process dressed as a Web Worker (no
 * `process.versions.node`, a WorkerGlobalScope), so the WASM glue takes its web code paths.
 * The browser-build tests compare what it gives with the server build's bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SRC = join(import.meta.dir, "..");

/** One tool run: `path` is the input file, `name` the input's name. */
export interface BrowserCase {
  slug: string;
  name: string;
  path: string;
  params?: Record<string, unknown>;
}

export interface BrowserRun {
  /** Build failures, as the bundler printed them (empty when the build worked). */
  buildError: string;
  /** All JavaScript of the bundle, to check which glue it carries. */
  bundle: string;
  /** Exit code and stderr of the worker-dressed process. */
  code: number;
  err: string;
  /** The WASM files the bundle asked the locator for, in order. */
  asked: string[];
  /** Bun.hash of each case's first output, in case order. */
  hashes: string[];
}

/**
 * Bundles `<family>/index.ts` (exporting `<family>Tools`) for the browser and runs `cases` in it,
 * every WASM file served from `wasmPath`.
 */
export async function runBrowserBuild(family: string, wasmPath: string, cases: BrowserCase[]): Promise<BrowserRun> {
  const dir = mkdtempSync(join(tmpdir(), `${family}-browser-`));
  try {
    const entry = join(dir, "entry.ts");
    const reexport = (names: string, file: string) => `export { ${names} } from ${JSON.stringify(join(SRC, file))};`;
    writeFileSync(entry, [reexport(`${family}Tools`, `${family}/index.ts`), reexport("executeEntry", "runtime/execute.ts"), reexport("setWasmLocator", "runtime/wasm-source.ts")].join("\n"));
    const out = join(dir, "out");
    const build = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=esm", "--splitting", `--outdir=${out}`, "--external=module", "--external=node:fs"], { stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) return { buildError: build.stderr.toString() || `bun build exited with ${build.exitCode}`, bundle: "", code: -1, err: "", asked: [], hashes: [] };
    const bundle = [...new Bun.Glob("*.js").scanSync(out)].map((f) => readFileSync(join(out, f), "utf8")).join("");

    const script = join(dir, "worker.ts");
    writeFileSync(
      script,
      `// dress this process as a Web Worker, so the WASM glue takes its web paths
Object.defineProperty(process.versions, "node", { value: undefined, configurable: true });
globalThis.WorkerGlobalScope = class {};
globalThis.self = globalThis;
const { readFileSync } = await import("node:fs");
const lib = await import(${JSON.stringify(join(out, "entry.js"))});
const asked = [];
lib.setWasmLocator((ref) => { asked.push(ref.file); return { bytes: new Uint8Array(readFileSync(${JSON.stringify(wasmPath)})) }; });
const hashes = [];
for (const { slug, name, path, params } of ${JSON.stringify(cases)}) {
  const entry = lib.${family}Tools.find((t) => t.manifest.slug === slug);
  const [out] = await lib.executeEntry(entry, [{ name, bytes: new Uint8Array(readFileSync(path)) }], params ?? {});
  hashes.push(String(Bun.hash(out.bytes)));
}
console.log(JSON.stringify({ asked, hashes }));
`,
    );
    const proc = Bun.spawn([process.execPath, script], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    const [stdout, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const result = (code === 0 ? JSON.parse(stdout.trim().split("\n").pop() || "{}") : {}) as { asked?: string[]; hashes?: string[] };
    return { buildError: "", bundle, code, err, asked: result.asked ?? [], hashes: result.hashes ?? [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
