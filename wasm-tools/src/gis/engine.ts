/**
 * A small, typed layer over gdal3.js's Emscripten module: the GDAL utilities (ogr2ogr,
 * gdal_translate, gdalwarp, gdalinfo, ogrinfo) called through their C API on files in the
 * module's in-memory file system. gdal3.js's own JavaScript wrapper is not used: it mounts host
 * folders under Node, talks to its own worker in browsers and cannot take its data file as bytes.
 *
 * Every operation runs alone (one at a time per worker) in a fresh folder; datasets it opened
 * are closed and its files removed when it ends, so nothing leaks from one call into the next.
 * On a host with files (the server's workers), an input is read from a host folder mounted
 * into that folder (NODEFS) and outputs are written to one, so neither is held in the WASM
 * heap: GDAL streams most formats, and its memory then does not grow with the file. In a browser's
 * Web Worker, an input given as a File or Blob is mounted (WORKERFS) and read the same way, piece
 * by piece as GDAL asks for it, and outputs are written to the Origin Private File System where the
 * host gives a folder there (opfs-output.ts), else in memory.
 */
import { readsBlobsSync } from "../runtime/blob-reads";
import { readThroughWindows, type WorkerFs } from "./blob-reads";

/** The part of Emscripten's FS object the tools use. */
export interface EmscriptenFs {
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array | string): void;
  readFile(path: string): Uint8Array;
  readdir(path: string): string[];
  unlink(path: string): void;
  rmdir(path: string): void;
  stat(path: string): { mode: number; size: number };
  lstat(path: string): { mode: number; size: number };
  isDir(mode: number): boolean;
  mount(type: unknown, options: { root: string } | { blobs: { name: string; data: Blob }[] } | Record<string, never>, mountpoint: string): void;
  unmount(mountpoint: string): void;
  symlink(target: string, path: string): void;
  filesystems: { NODEFS?: unknown; WORKERFS?: unknown };
  ErrnoError: new (errno: number) => Error;
}

/** The slice of the gdal3.js Emscripten module this layer calls. */
export interface GdalModule {
  FS: EmscriptenFs;
  HEAPF64: Float64Array;
  /** The in-memory file system (growing files: see growByDoubling). */
  MEMFS?: { expandFileStorage(node: MemNode, capacity: number): void };
  _malloc(size: number): number;
  _free(pointer: number): void;
  setValue(pointer: number, value: number, type: "*" | "i32"): void;
  getValue(pointer: number, type: "*" | "i32"): number;
  UTF8ToString(pointer: number): string;
  stringToUTF8(text: string, pointer: number, maxBytes: number): void;
  lengthBytesUTF8(text: string): number;
  ccall(name: string, returns: null, args: [], values: []): void;
  cwrap(name: string, returns: "number" | "string" | null, args: ("number" | "string")[]): (...args: (number | string | null)[]) => unknown;
}

/** A file in the in-memory file system: its storage and how much of it is used. */
interface MemNode {
  contents: Uint8Array | null;
  usedBytes: number;
}

/**
 * Makes files in the engine's memory grow by doubling. Emscripten's MEMFS grows a file past 1 MB
 * by 1/8 at a time, each step a new array and a copy: an output written piece by piece left up to
 * 8 times its size in old arrays for the collector (gis.reproject's GeoJSON in memory peaked at
 * 12x the input). Doubling leaves at most its size.
 */
function growByDoubling(memfs: NonNullable<GdalModule["MEMFS"]>): void {
  memfs.expandFileStorage = (node, capacity) => {
    const before = node.contents?.length ?? 0;
    if (before >= capacity) return;
    const grown = new Uint8Array(Math.max(capacity, before * 2, 256));
    if (node.contents && node.usedBytes > 0) grown.set(node.contents.subarray(0, node.usedBytes));
    node.contents = grown;
  };
}

/** GDAL reported a failure (its own message), as opposed to the engine crashing. */
export class GdalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GdalError";
  }
}

/** The WASM instance failed underneath GDAL (an Emscripten abort, out of memory): it cannot be used again. */
export class GdalCrash extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GdalCrash";
  }
}

/** An open GDAL dataset (a pointer into the WASM heap), valid until its operation ends. */
export interface Dataset {
  readonly pointer: number;
  readonly path: string;
}

const OF_RASTER = 0x02;
const OF_VECTOR = 0x04;
const OF_VERBOSE_ERROR = 0x40;
const CE_FAILURE = 3;

/** Options for opening a dataset. */
export interface OpenOptions {
  kind: "vector" | "raster";
  /** Short names of the drivers allowed to open it (all when empty). */
  drivers?: string[];
  /** Driver open options, `KEY=VALUE`. */
  openOptions?: string[];
}

/** Config options every operation runs with (GDAL's `--config`). */
const GLOBAL_CONFIG: Record<string, string> = {
  GDAL_PAM_ENABLED: "NO", // no .aux.xml side files next to outputs
  OGR_CURRENT_DATE: "2000-01-01T00:00:00Z", // GeoPackage timestamps: same bytes for the same input
  SHAPE_RESTORE_SHX: "YES", // a shapefile ZIP without its .shx is still readable
  CHECK_DISK_FREE_SPACE: "NO",
  GDAL_NUM_THREADS: "1", // the build has no threads; say so rather than let drivers probe
  GDAL_CACHEMAX: "128",
  CPL_TMPDIR: "/tmp",
  OGR_GEOJSON_MAX_OBJ_SIZE: "0", // no cap on one GeoJSON object's size
  // ogr2ogr's Arrow path reads a GeoPackage of thousands of features on a worker thread, which
  // this build cannot start ("Cannot start worker thread"): the row-by-row path works everywhere.
  OGR2OGR_USE_ARROW_API: "NO",
};

type Fn = (...args: (number | string | null)[]) => unknown;

/** The GDAL engine of one worker. */
export class Gdal {
  private readonly fn: Record<string, Fn>;
  private queue: Promise<unknown> = Promise.resolve();
  private serial = 0;
  private stderr: string[] = [];
  private broken: GdalCrash | undefined;

  constructor(private readonly module: GdalModule) {
    const m = module;
    const w = (name: string, returns: "number" | "string" | null, args: ("number" | "string")[]) => m.cwrap(name, returns, args);
    m.ccall("GDALAllRegister", null, [], []);
    this.fn = {
      open: w("GDALOpenEx", "number", ["string", "number", "number", "number", "number"]),
      close: w("GDALClose", null, ["number"]),
      errorReset: w("CPLErrorReset", null, []),
      errorType: w("CPLGetLastErrorType", "number", []),
      errorMsg: w("CPLGetLastErrorMsg", "string", []),
      setConfig: w("CPLSetConfigOption", null, ["string", "string"]),
      vtOptions: w("GDALVectorTranslateOptionsNew", "number", ["number", "number"]),
      vtFree: w("GDALVectorTranslateOptionsFree", null, ["number"]),
      vt: w("GDALVectorTranslate", "number", ["string", "number", "number", "number", "number", "number"]),
      tOptions: w("GDALTranslateOptionsNew", "number", ["number", "number"]),
      tFree: w("GDALTranslateOptionsFree", null, ["number"]),
      t: w("GDALTranslate", "number", ["string", "number", "number", "number"]),
      wOptions: w("GDALWarpAppOptionsNew", "number", ["number", "number"]),
      wFree: w("GDALWarpAppOptionsFree", null, ["number"]),
      warp: w("GDALWarp", "number", ["string", "number", "number", "number", "number", "number"]),
      iOptions: w("GDALInfoOptionsNew", "number", ["number", "number"]),
      iFree: w("GDALInfoOptionsFree", null, ["number"]),
      info: w("GDALInfo", "number", ["number", "number"]),
      viOptions: w("GDALVectorInfoOptionsNew", "number", ["number", "number"]),
      viFree: w("GDALVectorInfoOptionsFree", null, ["number"]),
      vectorInfo: w("GDALVectorInfo", "number", ["number", "number"]),
      srsNew: w("OSRNewSpatialReference", "number", ["number"]),
      srsFromEpsg: w("OSRImportFromEPSG", "number", ["number", "number"]),
      srsFree: w("OSRDestroySpatialReference", null, ["number"]),
      srsToWkt: w("OSRExportToWkt", "number", ["number", "number"]),
      free: w("free", null, ["number"]),
    };
    for (const [key, value] of Object.entries(GLOBAL_CONFIG)) this.fn.setConfig(key, value);
    if (module.MEMFS) growByDoubling(module.MEMFS);
    module.FS.mkdir("/work");
  }

  /** Where the module's stderr goes: GDAL prints `ERROR n: ...` and `Warning n: ...`, some over several lines. */
  log(line: string): void {
    if (/^(ERROR|Warning) \d+:/.test(line) || this.stderr.length === 0) {
      if (this.stderr.length < 200) this.stderr.push(line);
    } else {
      this.stderr[this.stderr.length - 1] += ` ${line}`;
    }
  }

  /** Set once the instance crashed; the host must load a fresh one. */
  get crashed(): GdalCrash | undefined {
    return this.broken;
  }

  /** Files and folders left in the engine's work area (empty between operations; for tests and health checks). */
  leftovers(): string[] {
    return this.module.FS.readdir("/work").filter((name) => name !== "." && name !== "..");
  }

  /** Runs `work` alone, in a fresh folder; closes what it opened and removes its files afterwards. */
  operation<T>(work: (op: Operation) => T | Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      if (this.broken) throw this.broken;
      const dir = `/work/op${++this.serial}`;
      this.module.FS.mkdir(dir);
      this.stderr = [];
      this.fn.errorReset();
      const op = new Operation(this, this.module, dir);
      let failed = true;
      try {
        const result = await work(op);
        failed = false;
        return result;
      } catch (thrown) {
        const err = op.explained(thrown);
        if (err instanceof GdalError || this.broken) throw err;
        if (err instanceof WebAssembly.RuntimeError || isEmscriptenAbort(err)) {
          this.broken = new GdalCrash(`the GDAL engine crashed: ${err instanceof Error ? err.message : String(err)}`);
          throw this.broken;
        }
        throw err;
      } finally {
        if (!this.broken) op.closeAll();
        // Host folders go before the tree is removed, whatever happened: removing it through them would delete host files.
        op.unmountAll();
        if (!this.broken) {
          removeTree(this.module.FS, dir);
          this.fn.errorReset();
        }
        await op.ended(failed);
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** @internal the wrapped C functions (for Operation). */
  call(name: string, ...args: (number | string | null)[]): unknown {
    return this.fn[name](...args);
  }

  /**
   * @internal The first error GDAL printed since the last reset (the cause; later ones tend to
   * be consequences such as "terminating translation"), else its last error message.
   */
  lastError(fallback: string): string {
    const printed = this.stderr.find((line) => /^ERROR \d+:/.test(line));
    if (printed) return printed.replace(/^ERROR \d+:\s*/, "").trim();
    const type = this.fn.errorType() as number;
    const message = type >= CE_FAILURE ? String(this.fn.errorMsg()).trim() : "";
    return message || fallback;
  }

  /** @internal what GDAL printed during the current operation. */
  printed(): string[] {
    return this.stderr;
  }

  /** @internal whether a failure was reported since the last reset. */
  failed(): boolean {
    return (this.fn.errorType() as number) >= CE_FAILURE;
  }

  /** @internal */
  resetErrors(): void {
    this.fn.errorReset();
    this.stderr = [];
  }
}

/** One operation's view of the engine: its folder, its datasets and the utilities. */
export class Operation {
  private readonly open: Dataset[] = [];
  /** Host folders (and Blobs) mounted in this operation: where, and which host folder (none for a Blob). */
  private readonly mounts: { at: string; host?: string }[] = [];
  /** What runs once the operation's files are gone (closing outside files it wrote through). */
  private readonly endings: ((failed: boolean) => Promise<void>)[] = [];
  /** What may say better why the operation failed (see explainFailures). */
  private readonly explainers: ((err: unknown) => Error | undefined)[] = [];

  constructor(
    private readonly gdal: Gdal,
    private readonly m: GdalModule,
    /** This operation's folder in the module's file system. */
    readonly dir: string,
  ) {}

  /** Writes `bytes` to `path` (relative to the operation folder), creating folders on the way. */
  write(path: string, bytes: Uint8Array | string): string {
    const full = `${this.dir}/${path}`;
    const parts = path.split("/").slice(0, -1);
    let at = this.dir;
    for (const part of parts) {
      at += `/${part}`;
      if (!exists(this.m.FS, at)) this.m.FS.mkdir(at);
    }
    this.m.FS.writeFile(full, bytes);
    return full;
  }

  /**
   * Mounts the host folder `hostDir` at `path` (relative to the operation folder; created; by
   * default a fresh name) and returns its full path: files there are read and written on the
   * host's disk, not in the heap. A folder mounted already answers its mount. Needs a host with
   * files (NODEFS, the server's workers).
   */
  mountHost(hostDir: string, path = `host${this.mounts.length}`): string {
    const host = hostDir.replace(/\/+$/, "");
    const known = this.mounts.find((m) => m.host === host);
    if (known) return known.at;
    const nodefs = this.m.FS.filesystems.NODEFS;
    if (!nodefs) throw new Error("this engine cannot mount host folders (no NODEFS)");
    const full = this.mkdir(path);
    this.m.FS.mount(nodefs, { root: host }, full);
    this.mounts.push({ at: full, host });
    return full;
  }

  /**
   * Mounts `blob` (a browser File or Blob) read-only as the file `name` in a fresh folder and
   * returns the file's full path: GDAL reads it through FileReaderSync, a window at a time
   * (blob-reads.ts), so it is never copied whole into memory. Needs a Web Worker (WORKERFS).
   */
  mountBlob(blob: Blob, name: string): string {
    const workerfs = this.m.FS.filesystems.WORKERFS;
    if (!workerfs || !readsBlobsSync()) throw new Error("this engine cannot mount a Blob here (WORKERFS needs a Web Worker)");
    readThroughWindows(workerfs as WorkerFs);
    const full = this.mkdir(`blob${this.mounts.length}`);
    this.m.FS.mount(workerfs, { blobs: [{ name, data: blob }] }, full);
    this.mounts.push({ at: full });
    return `${full}/${name}`;
  }

  /**
   * Mounts a file system built for this engine's module by `type` (e.g. opfs-output.ts's) at
   * `path` (relative; created) and returns its full path; it is unmounted when the operation ends.
   */
  mountFs(type: (m: GdalModule) => object, path: string): string {
    const full = this.mkdir(path);
    this.m.FS.mount(type(this.m), {}, full);
    this.mounts.push({ at: full });
    return full;
  }

  /** Runs `ending` when the operation has ended (after its datasets are closed and its folder removed), told whether it failed. */
  whenEnded(ending: (failed: boolean) => Promise<void>): void {
    this.endings.push(ending);
  }

  /** Lets `explain` replace the error the operation fails with, e.g. a full disk behind the message a driver made of it. */
  explainFailures(explain: (err: unknown) => Error | undefined): void {
    this.explainers.push(explain);
  }

  /** @internal the error the operation fails with: `err`, or what an explainer says instead. */
  explained(err: unknown): unknown {
    for (const explain of this.explainers) {
      const better = explain(err);
      if (better) return better;
    }
    return err;
  }

  /** @internal runs the endings (end of operation). */
  async ended(failed: boolean): Promise<void> {
    for (const ending of this.endings.splice(0)) await ending(failed);
  }

  /** The engine's module, for code that builds on its file system (opfs-output.ts). */
  get module(): GdalModule {
    return this.m;
  }

  /** The host path of `fullPath` when it is in a mounted host folder, else null (it is in the heap, or a mounted Blob). */
  hostPath(fullPath: string): string | null {
    const mount = this.mounts.find((m) => m.host !== undefined && fullPath.startsWith(`${m.at}/`));
    return mount ? `${mount.host}${fullPath.slice(mount.at.length)}` : null;
  }

  /** `link` (relative) points at `target` (a full path, e.g. in a host mount): a staged name for a host file. */
  link(link: string, target: string): string {
    const full = `${this.dir}/${link}`;
    this.mkdir(link.split("/").slice(0, -1).join("/"));
    this.m.FS.symlink(target, full);
    return full;
  }

  /** @internal unmounts the host folders (end of operation, after closeAll). */
  unmountAll(): void {
    while (this.mounts.length) this.m.FS.unmount(this.mounts.pop()!.at);
  }

  /** Creates a folder (relative to the operation folder) and returns its full path. */
  mkdir(path: string): string {
    const full = `${this.dir}/${path}`;
    if (!exists(this.m.FS, full)) this.m.FS.mkdir(full);
    return full;
  }

  /** A file's bytes, safe to keep after the operation: Emscripten's readFile reads into a new array, so no second copy is made. */
  read(fullPath: string): Uint8Array {
    return this.m.FS.readFile(fullPath);
  }

  /** Whether a path exists. */
  exists(fullPath: string): boolean {
    return exists(this.m.FS, fullPath);
  }

  /** The files under a folder (recursively), as full paths, sorted. */
  files(fullDir: string): string[] {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const name of this.m.FS.readdir(dir).sort()) {
        if (name === "." || name === "..") continue;
        const path = `${dir}/${name}`;
        if (this.m.FS.isDir(this.m.FS.stat(path).mode)) walk(path);
        else out.push(path);
      }
    };
    walk(fullDir);
    return out;
  }

  /** Removes a file or a folder with everything in it. */
  remove(fullPath: string): void {
    removeTree(this.m.FS, fullPath);
  }

  /** Opens a dataset; throws GdalError with GDAL's reason when no allowed driver can read it. */
  openDataset(path: string, options: OpenOptions): Dataset {
    this.gdal.resetErrors();
    const drivers = options.drivers?.length ? this.strings(options.drivers) : 0;
    const openOptions = options.openOptions?.length ? this.strings(options.openOptions) : 0;
    try {
      const flags = (options.kind === "vector" ? OF_VECTOR : OF_RASTER) | OF_VERBOSE_ERROR;
      const pointer = this.gdal.call("open", path, flags, drivers, openOptions, 0) as number;
      if (!pointer) throw new GdalError(this.gdal.lastError("no driver could open the file"));
      const dataset = { pointer, path };
      this.open.push(dataset);
      return dataset;
    } finally {
      if (drivers) this.freeStrings(drivers);
      if (openOptions) this.freeStrings(openOptions);
    }
  }

  /** Closes a dataset now (writers flush on close). */
  close(dataset: Dataset): void {
    const i = this.open.indexOf(dataset);
    if (i >= 0) {
      this.open.splice(i, 1);
      this.gdal.call("close", dataset.pointer);
    }
  }

  /** @internal closes whatever is still open (end of operation), newest first. */
  closeAll(): void {
    while (this.open.length) this.gdal.call("close", this.open.pop()!.pointer);
  }

  /** ogr2ogr `args` from `source` into `dest`; the output is closed (flushed) before this returns. */
  vectorTranslate(dest: string, source: Dataset, args: string[]): void {
    this.utility("vt", "vtOptions", "vtFree", args, (options) => this.withSourceList(source, (list) => this.gdal.call("vt", dest, 0, 1, list, options, 0) as number));
  }

  /** gdal_translate `args` from `source` into `dest`. */
  translate(dest: string, source: Dataset, args: string[]): void {
    this.utility("t", "tOptions", "tFree", args, (options) => this.gdal.call("t", dest, source.pointer, options, 0) as number);
  }

  /** gdalwarp `args` from `source` into `dest`. */
  warp(dest: string, source: Dataset, args: string[]): void {
    this.utility("warp", "wOptions", "wFree", args, (options) => this.withSourceList(source, (list) => this.gdal.call("warp", dest, 0, 1, list, options, 0) as number));
  }

  /** GDAL's utilities take their sources as a C array of dataset pointers, freed after the call. */
  private withSourceList<T>(source: Dataset, use: (list: number) => T): T {
    const list = this.pointerList([source.pointer]);
    try {
      return use(list);
    } finally {
      this.m._free(list);
    }
  }

  /** gdalinfo -json (plus `args`) of a raster dataset, parsed. */
  rasterInfo(dataset: Dataset, args: string[] = []): unknown {
    return JSON.parse(this.report("info", "iOptions", "iFree", dataset, ["-json", ...args]));
  }

  /** ogrinfo -json (plus `args`) of a vector dataset, parsed. */
  vectorInfo(dataset: Dataset, args: string[] = []): unknown {
    return JSON.parse(this.report("vectorInfo", "viOptions", "viFree", dataset, ["-json", ...args]));
  }

  /** The WKT (GDAL's default, WKT1 style) of EPSG:`code`, or null when the EPSG database has no such CRS. */
  epsgWkt(code: number): string | null {
    const srs = this.gdal.call("srsNew", 0) as number;
    const out = this.m._malloc(4);
    this.m.setValue(out, 0, "*");
    try {
      if ((this.gdal.call("srsFromEpsg", srs, code) as number) !== 0) return null;
      if ((this.gdal.call("srsToWkt", srs, out) as number) !== 0) return null;
      const text = this.m.getValue(out, "*");
      if (!text) return null;
      try {
        return this.m.UTF8ToString(text);
      } finally {
        this.gdal.call("free", text);
      }
    } finally {
      this.m._free(out);
      this.gdal.call("srsFree", srs);
      this.gdal.resetErrors();
    }
  }

  /** What GDAL printed (warnings, errors) during this operation so far. */
  messages(): string[] {
    return [...this.gdal.printed()];
  }

  private utility(run: string, make: string, free: string, args: string[], call: (options: number) => number): void {
    this.withOptions(run, make, free, args, (options) => {
      const out = call(options);
      if (!out) throw new GdalError(this.gdal.lastError("the conversion failed"));
      this.gdal.call("close", out);
      if (this.gdal.failed()) throw new GdalError(this.gdal.lastError("the conversion failed"));
    });
  }

  private report(run: string, make: string, free: string, dataset: Dataset, args: string[]): string {
    return this.withOptions(run, make, free, args, (options) => {
      const text = this.gdal.call(run, dataset.pointer, options) as number;
      if (!text) throw new GdalError(this.gdal.lastError("could not describe the dataset"));
      try {
        return this.m.UTF8ToString(text);
      } finally {
        this.gdal.call("free", text);
      }
    });
  }

  /** Runs `body` with a GDAL options object made from `args` by `make`, freed by `free` afterwards. */
  private withOptions<T>(run: string, make: string, free: string, args: string[], body: (options: number) => T): T {
    this.gdal.resetErrors();
    const argv = this.strings(args);
    let options = 0;
    try {
      options = this.gdal.call(make, argv, 0) as number;
      if (!options) throw new GdalError(this.gdal.lastError(`invalid ${run} options: ${args.join(" ")}`));
      return body(options);
    } finally {
      if (options) this.gdal.call(free, options);
      this.freeStrings(argv);
    }
  }

  /** A NULL-terminated char** in the WASM heap. */
  private strings(list: string[]): number {
    const array = this.m._malloc(4 * (list.length + 1));
    list.forEach((text, i) => {
      const size = this.m.lengthBytesUTF8(text) + 1;
      const pointer = this.m._malloc(size);
      this.m.stringToUTF8(text, pointer, size);
      this.m.setValue(array + 4 * i, pointer, "*");
    });
    this.m.setValue(array + 4 * list.length, 0, "*");
    return array;
  }

  private freeStrings(array: number): void {
    for (let at = array; ; at += 4) {
      const pointer = this.m.getValue(at, "*");
      if (!pointer) break;
      this.m._free(pointer);
    }
    this.m._free(array);
  }

  private pointerList(pointers: number[]): number {
    const list = this.m._malloc(4 * pointers.length);
    pointers.forEach((p, i) => this.m.setValue(list + 4 * i, p, "*"));
    return list;
  }
}

function exists(fs: EmscriptenFs, path: string): boolean {
  try {
    fs.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes a file or folder tree; a link is removed, not followed (staged inputs link to host files). */
function removeTree(fs: EmscriptenFs, path: string): void {
  let mode: number;
  try {
    mode = fs.lstat(path).mode;
  } catch {
    return;
  }
  if (!fs.isDir(mode)) {
    fs.unlink(path);
    return;
  }
  for (const name of fs.readdir(path)) if (name !== "." && name !== "..") removeTree(fs, `${path}/${name}`);
  fs.rmdir(path);
}

/** Emscripten's abort() throws a RuntimeError or, in some builds, a plain Error starting with "Aborted(". */
function isEmscriptenAbort(err: unknown): boolean {
  return err instanceof Error && /^Aborted\(|^abort\(|out of memory|memory access out of bounds/i.test(err.message);
}
