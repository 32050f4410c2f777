/**
 * The GIS family's WASM (gdal3.js: GDAL 3.8 with PROJ, GEOS, SQLite): loaded once per worker, on
 * first use. It needs two files, both from the host's locator: the 28 MB module and the 11 MB
 * data package that holds PROJ's database and GDAL's support files (mounted at /usr/share).
 * With no locator (or `undefined` from it) both are fetched from beside the running script,
 * as the library itself would; where there is no script URL (Node) that is a clear failure.
 */
import { ToolError, type RunContext } from "@vektor/shared/tools/manifest";
import { checkpoint, errorMessage } from "../runtime/context";
import { fastInvokes } from "../runtime/emscripten-invokes";
import { ledgerNodeFs } from "../runtime/nodefs-ledger";
import { lazyOnce, locateWasm, startEmscripten, type WasmModuleRef, type WasmSource } from "../runtime/wasm-source";
import { bufferWrites, type NodeFs } from "./buffered-writes";
import { Gdal, GdalCrash, GdalError, type GdalModule, type Operation } from "./engine";

/** gdal3.js's WebAssembly binary, beside its entry module `dist/package/gdal3.js`. */
export const GDAL_WASM: WasmModuleRef = { family: "gis", name: "gdal3", pkg: "gdal3.js", file: "gdal3WebAssembly.wasm" };

/** gdal3.js's data package (PROJ database, GDAL data files), in the same folder. */
export const GDAL_DATA: WasmModuleRef = { family: "gis", name: "gdal3-data", pkg: "gdal3.js", file: "gdal3WebAssembly.data" };

type Factory = (options: object) => Promise<GdalModule>;

/** The data package as the Emscripten file packager wants it: an ArrayBuffer of exactly its bytes. */
async function dataPackage(source: WasmSource): Promise<ArrayBuffer> {
  if ("module" in source) throw new Error(`${GDAL_DATA.file} is a data file, not a WebAssembly module: give it as bytes or a URL`);
  if ("bytes" in source) {
    const { bytes } = source;
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
    return bytes.slice().buffer as ArrayBuffer;
  }
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`${source.url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The library's default place for `ref`: beside the running script (a browser worker), if there is one. */
function besideScript(ref: WasmModuleRef): WasmSource | undefined {
  const href = (globalThis as { location?: { href?: string } }).location?.href;
  return href ? { url: new URL(ref.file, href).href } : undefined;
}

async function locate(ref: WasmModuleRef): Promise<WasmSource> {
  const source = (await locateWasm(ref)) ?? besideScript(ref);
  if (!source) throw new Error(`no source for ${ref.file}: the host must provide it through setWasmLocator`);
  return source;
}

let invokes: ReturnType<typeof fastInvokes>;

/** How many of the engine's `invoke_*` imports run as WebAssembly (0: all through JavaScript); for tests. */
export function fastInvokeCount(): number {
  return invokes?.replaced ?? 0;
}

const engine = lazyOnce(async (): Promise<Gdal> => {
  try {
    const [wasm, data] = await Promise.all([locate(GDAL_WASM), locate(GDAL_DATA)]);
    const packageBytes = await dataPackage(data);
    const { default: factory } = (await import("gdal3.js/build/package/gdal3WebAssembly.js")) as { default: Factory };
    let gdal: Gdal | undefined;
    const start = (options: object) =>
      factory({
        ...options,
        print: () => {},
        printErr: (line: string) => gdal?.log(line), // GDAL's errors and warnings; nothing reaches the console
        // The file packager takes the data package from here instead of fetching it itself; it
        // knows the package's size, so a file from another gdal3.js version is caught here.
        getPreloadedPackage: (_name: string, size: number) => {
          if (size && packageBytes.byteLength !== size) {
            throw new Error(`${GDAL_DATA.file} has ${packageBytes.byteLength} bytes, this gdal3.js build expects ${size} (a file from another version?)`);
          }
          return packageBytes;
        },
        preRun: [
          ({ ENV }: { ENV: Record<string, string> }) => {
            ENV.PROJ_LIB = "/usr/share/proj";
            ENV.GDAL_DATA = "/usr/share/gdal";
            ENV.DXF_FEATURE_LIMIT_PER_BLOCK = "-1";
            ENV.GDAL_NUM_THREADS = "1";
          },
        ],
      });
    // Emscripten's C++ exception trampolines as WebAssembly (runtime/emscripten-invokes.ts): a
    // third of GeoPackage -> GeoJSON's time went on crossings into JavaScript and back. It needs
    // the module's bytes (the server's source); from a URL or a compiled module the glue's stay.
    invokes = "bytes" in wasm ? fastInvokes(wasm.bytes) : undefined;
    const module = await startEmscripten(wasm, start, invokes?.adapt);
    const nodefs = module.FS.filesystems.NODEFS;
    if (nodefs) {
      bufferWrites(nodefs as NodeFs); // host files: outputs in 1 MB writes, not 1 KB ones
      ledgerNodeFs(nodefs as NodeFs, module.FS.ErrnoError); // and what a run holds open, where its pool can close it
    }
    gdal = new Gdal(module);
    return gdal;
  } catch (err) {
    throw new ToolError("TOOL_FAILED", `Could not load the GIS engine (gdal3.js WASM and data): ${errorMessage(err)}`);
  }
});

/** The GDAL engine, initialised once per worker (a crashed instance is replaced on the next call). */
export async function loadGdal(): Promise<Gdal> {
  const gdal = await engine.get();
  if (!gdal.crashed) return gdal;
  engine.discard();
  return engine.get();
}

/**
 * Runs `work` as one engine operation (its own folder, its datasets closed afterwards). A crash
 * of the WASM instance becomes TOOL_FAILED and the next run loads a fresh one; a GDAL failure
 * the tool did not map itself becomes TOOL_FAILED with GDAL's message.
 */
export async function withGdal<T>(ctx: RunContext, work: (op: Operation) => T | Promise<T>): Promise<T> {
  checkpoint(ctx);
  const gdal = await loadGdal();
  checkpoint(ctx);
  try {
    return await gdal.operation(work);
  } catch (err) {
    if (err instanceof GdalCrash) throw new ToolError("TOOL_FAILED", `${err.message}; the next run starts a fresh engine`);
    if (err instanceof GdalError) throw new ToolError("TOOL_FAILED", `GDAL failed: ${err.message}`);
    throw err;
  }
}
