/**
 * GIS outputs written through sync access handles (opfs-output.ts), outside a browser: Bun has no
 * Origin Private File System, so these tests give the tools a folder whose handles are real files
 * on disk, read and written at positions with node:fs, with the same calls as a browser's
 * FileSystemSyncAccessHandle. The outputs must be the same bytes as the ones made in memory, come
 * back as Files, and leave nothing behind; a run that fails (a full quota) leaves no file. Chromium's own OPFS is
 * covered by e2e/gis-opfs.e2e.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeEntry } from "../runtime/execute";
import { gisTools } from "./index";
import { loadGdal } from "./init";
import { nativeVector } from "./testing/cli";
import { featureCollection, makeGeoTiff, makeTwoLayerGpkg, manyFeatures } from "./testing/fixtures";
import { inputOf, runGis } from "./testing/run";

/** A file read and written at positions, as FileSystemSyncAccessHandle does it. */
class FileSyncHandle {
  private fd: number | null;
  constructor(
    path: string,
    /** Writes that would make the file longer fail as a browser's do when the origin's quota is used up. */
    private readonly quota = Infinity,
  ) {
    this.fd = openSync(path, "r+");
  }
  private open(): number {
    if (this.fd === null) throw new DOMException("the handle is closed", "InvalidStateError");
    return this.fd;
  }
  read(into: Uint8Array, { at }: { at: number }): number {
    return readSync(this.open(), into, 0, into.length, at);
  }
  write(from: Uint8Array, { at }: { at: number }): number {
    if (at + from.length > this.quota) throw new DOMException("the origin's quota is used up", "QuotaExceededError");
    return writeSync(this.open(), from, 0, from.length, at);
  }
  truncate(size: number): void {
    ftruncateSync(this.open(), size);
  }
  getSize(): number {
    return fstatSync(this.open()).size;
  }
  flush(): void {}
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The calls of FileSystemDirectoryHandle and FileSystemFileHandle the tools make, on a folder on disk. */
function diskFolder(dir: string, quota?: number): FileSystemDirectoryHandle {
  const fileHandle = (name: string) => ({
    kind: "file",
    name,
    createSyncAccessHandle: async () => new FileSyncHandle(join(dir, name), quota),
    getFile: async () => new File([readFileSync(join(dir, name))], name),
  });
  return {
    kind: "directory",
    name: "run",
    getFileHandle: async (name: string, options?: { create?: boolean }) => {
      if (!existsSync(join(dir, name))) {
        if (!options?.create) throw new DOMException(`${name} is not there`, "NotFoundError");
        writeFileSync(join(dir, name), "");
      }
      return fileHandle(name);
    },
    removeEntry: async (name: string) => rmSync(join(dir, name)),
  } as unknown as FileSystemDirectoryHandle;
}

const globals = globalThis as { FileSystemSyncAccessHandle?: unknown };
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "gis-opfs-"));
  globals.FileSystemSyncAccessHandle = FileSyncHandle;
});

afterAll(() => {
  delete globals.FileSystemSyncAccessHandle;
  rmSync(root, { recursive: true, force: true });
});

/** Runs `slug` with a fresh folder on disk as its RunContext.outputFolder; answers the outputs and the folder. */
async function runToFolder(slug: string, inputs: ReturnType<typeof inputOf>, params: Record<string, unknown>, quota?: number) {
  const dir = mkdtempSync(join(root, "run-"));
  const entry = gisTools.find((e) => e.manifest.slug === slug)!;
  const run = executeEntry(entry, inputs, params, { outputFolder: diskFolder(dir, quota) });
  return { run, dir };
}

/** An output's bytes: its File's when it came as one. */
async function bytesOf(output: { bytes: Uint8Array; blob?: Blob }): Promise<Uint8Array> {
  return output.blob ? new Uint8Array(await output.blob.arrayBuffer()) : output.bytes;
}

describe("GIS outputs through sync access handles", () => {
  test("GeoJSON to GeoPackage (SQLite, written with seeks back): the same bytes as in memory, as a File; only that file is kept", async () => {
    const input = () => inputOf("many.geojson", featureCollection(manyFeatures(3000)));
    const [inMemory] = await runGis("gis.convert", input(), { to: "gpkg" });
    const { run, dir } = await runToFolder("gis.convert", input(), { to: "gpkg" });
    const [out] = await run;
    expect({ name: out.name, mime: out.mime, bytes: out.bytes.byteLength, blob: out.blob instanceof File }).toEqual({ name: "many.gpkg", mime: inMemory.mime, bytes: 0, blob: true });
    const written = await bytesOf(out);
    expect(Buffer.compare(written, inMemory.bytes)).toBe(0);
    expect(nativeVector("many.gpkg", written)[0].featureCount).toBe(3000);
    expect(readdirSync(dir)).toEqual(["many.gpkg"]);
    expect((await loadGdal()).leftovers()).toEqual([]);
  }, 120_000);

  test("one file per layer (GeoPackage of two layers to CSV, written 1 KB at a time through stdio), each the same bytes as in memory", async () => {
    const gpkg = await makeTwoLayerGpkg();
    const inMemory = await runGis("gis.convert", inputOf("two.gpkg", gpkg), { to: "csv" });
    const { run, dir } = await runToFolder("gis.convert", inputOf("two.gpkg", gpkg), { to: "csv" });
    const outputs = await run;
    expect(outputs.map((o) => [o.name, o.bytes.byteLength, o.blob instanceof File])).toEqual(inMemory.map((o) => [o.name, 0, true]));
    for (const [i, out] of outputs.entries()) expect(Buffer.compare(await bytesOf(out), inMemory[i]!.bytes)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["0.csv", "1.csv"]);
  }, 120_000);

  test("rasters too: GeoTIFF to PNG and COG (whose driver writes a temporary file beside it, kept in memory), the same bytes as in memory", async () => {
    const tiff = await makeGeoTiff({ width: 300, height: 200 });
    for (const [to, file] of [
      ["png", "out.png"],
      ["cog", "out-cog.tif"],
    ] as const) {
      const [inMemory] = await runGis("gis.raster-convert", inputOf("grid.tif", tiff), { to });
      const { run, dir } = await runToFolder("gis.raster-convert", inputOf("grid.tif", tiff), { to });
      const [out] = await run;
      expect(out.blob).toBeInstanceOf(File);
      expect(Buffer.compare(await bytesOf(out), inMemory.bytes)).toBe(0);
      expect(readdirSync(dir)).toEqual([file]);
    }
  }, 120_000);

  test("a run that fails while writing (the origin's quota used up) leaves no file in the folder, and the engine carries on", async () => {
    const input = () => inputOf("many.geojson", featureCollection(manyFeatures(3000)));
    for (const to of ["gpkg", "geojson"]) {
      const { run, dir } = await runToFolder("gis.convert", input(), { to }, 64 * 1024);
      const failed = await run.then(() => null, (err: { code?: string; message?: string }) => err);
      expect({ to, code: failed?.code, message: failed?.message }).toEqual({ to, code: "TOOL_FAILED", message: expect.stringMatching(/^This browser's storage for the site is full/) });
      expect(readdirSync(dir)).toEqual([]);
    }
    expect((await loadGdal()).leftovers()).toEqual([]);
    const [again] = await runGis("gis.convert", input(), { to: "csv" });
    expect(new TextDecoder().decode(again.bytes)).toContain("feature 2999");
  }, 120_000);
});
