/**
 * The chunked readers and writers against the whole-file results: every tool run on a host file
 * (ToolInput.path, outputs into RunContext.outputDir, as the server runs them) gives the bytes it
 * gives on the same file in memory (as the browser runs them), for LAS and LAZ, LAZ with several
 * chunks, variable-sized chunks and a chunk table found through the file's end; and bad files
 * still fail with the tools' codes.
 */
import "../../testing/node-host";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolErrorCode, ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { execute } from "../../runtime/execute";
import { pointcloudFixture } from "../../testing/fixtures";
import { expectToolError } from "../../testing/run-tool";
import { writeBigLaz } from "../testing/big-clouds";
import { ArithmeticDecoder, IntegerDecompressor } from "./arithmetic";
import { encodeChunkTable, readChunkTable, VARIABLE_CHUNKS } from "./chunk-table";
import { H, parseLasHeader } from "./header";
import { bytesSource } from "./source";
import { isLaszipVlr, parseVlrs } from "./vlr";

const dir = mkdtempSync(join(tmpdir(), "pointcloud-streaming-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** `bytes` as the server passes an input: a host file, its size and its first 64 KiB. */
function hostInput(name: string, bytes: Uint8Array): ToolInput {
  const path = join(dir, `in-${files++}-${name}`);
  writeFileSync(path, bytes);
  return { name, bytes: bytes.slice(0, 64 * 1024), path, size: bytes.length };
}

/** Runs `slug` with its output folder; answers the output and its bytes, read from its file. */
async function onHost(slug: string, input: ToolInput, params: object = {}): Promise<{ out: ToolOutput; bytes: Uint8Array }> {
  const outputDir = mkdtempSync(join(dir, "out-"));
  const [out] = await execute(slug, [input], params, { outputDir });
  return { out, bytes: out.path ? new Uint8Array(readFileSync(out.path)) : out.bytes };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** autzen_trim.laz with variable-sized chunks: its laszip VLR says so and its table holds each chunk's count. */
async function variableChunks(): Promise<Uint8Array> {
  const laz = pointcloudFixture("autzen_trim.laz").bytes;
  const header = parseLasHeader(laz, "v.laz");
  const vlr = parseVlrs(laz, header, "v.laz").find(isLaszipVlr)!;
  const chunks = await readChunkTable(bytesSource(laz), header, 50_000, "v.laz");
  const tableAt = chunks[2].offset + chunks[2].bytes;
  const out = new Uint8Array([...laz.subarray(0, tableAt), ...encodeChunkTable(chunks, true)]);
  new DataView(out.buffer).setUint32(vlr.dataStart + 12, VARIABLE_CHUNKS, true);
  return out;
}

/** autzen_trim.laz written as by a writer that could not seek back: offset -1, the table's offset in the last 8 bytes. */
function tableOffsetAtEnd(): Uint8Array {
  const laz = pointcloudFixture("autzen_trim.laz").bytes;
  const at = parseLasHeader(laz, "e.laz").pointDataOffset;
  const tableAt = new DataView(laz.buffer).getBigInt64(at, true);
  const out = new Uint8Array(laz.length + 8);
  out.set(laz);
  const v = new DataView(out.buffer);
  v.setBigInt64(at, -1n, true);
  v.setBigInt64(laz.length, tableAt, true);
  return out;
}

describe("LAZ chunk table", () => {
  test("autzen_trim.laz: three chunks that end where the table starts, and the encoder writes its table byte for byte", async () => {
    const laz = pointcloudFixture("autzen_trim.laz").bytes;
    const header = parseLasHeader(laz, "a.laz");
    const chunks = await readChunkTable(bytesSource(laz), header, 50_000, "a.laz");
    expect(chunks.map((c) => c.points)).toEqual([50_000, 50_000, 10_000]);
    const tableAt = Number(new DataView(laz.buffer).getBigInt64(header.pointDataOffset, true));
    expect(chunks[0].offset).toBe(header.pointDataOffset + 8);
    expect(chunks[2].offset + chunks[2].bytes).toBe(tableAt);
    expect(same(encodeChunkTable(chunks, false), laz.subarray(tableAt))).toBe(true);
  });

  test("values of every magnitude survive encoding and decoding, in both contexts", () => {
    const chunks = Array.from({ length: 300 }, (_, i) => ({ points: ((i * 7919) % 70_000) + 1, bytes: (i * 2_654_435_761) % 2 ** 31 || 1 }));
    const table = encodeChunkTable(chunks, true);
    const ic = new IntegerDecompressor(new ArithmeticDecoder(table.subarray(8)), 2);
    let [points, bytes] = [0, 0];
    const decoded = chunks.map(() => ({ points: (points = ic.decompress(points, 0)), bytes: (bytes = ic.decompress(bytes, 1)) }));
    expect(decoded).toEqual(chunks);
  });
});

describe("point clouds read from host files", () => {
  const cases: [string, string, object][] = [
    ["pointcloud.laz-to-las", "autzen_trim.laz", {}],
    ["pointcloud.laz-to-las", "point-time-1.4.las.laz", {}],
    ["pointcloud.laz-to-las", "extrabytes.laz", {}],
    ["pointcloud.convert", "autzen_trim.laz", { format: "xyz" }],
    ["pointcloud.convert", "point-color-time.las", { format: "csv" }],
    ["pointcloud.convert", "autzen_trim.las", { format: "ply" }],
    ["pointcloud.decimate", "autzen_trim.laz", { fraction: 0.37 }],
    ["pointcloud.decimate", "Haystack_Rock.las", { every: 3 }],
    ["pointcloud.info", "autzen_trim.laz", {}],
  ];
  for (const [slug, file, params] of cases) {
    test(`${slug} on ${file}: the same output as from bytes, written to the output folder`, async () => {
      const input = pointcloudFixture(file);
      const [fromBytes] = await execute(slug, [input], params);
      const { out, bytes } = await onHost(slug, hostInput(file, input.bytes), params);
      expect(out.name).toBe(fromBytes.name);
      expect(out.mime).toBe(fromBytes.mime);
      if (out.path) expect(out.bytes.length).toBe(0);
      expect(bytes.length).toBe(fromBytes.bytes.length);
      expect(same(bytes, fromBytes.bytes)).toBe(true);
    });
  }

  test("a browser's File (ToolInput.blob, read a slice at a time) gives the same outputs as bytes", async () => {
    // execute() reads a Blob whole outside a Web Worker, so the run modules are called directly here.
    const runs = { "pointcloud.laz-to-las": (await import("../laz-to-las/run")).run, "pointcloud.convert": (await import("../convert/run")).run };
    for (const [slug, file, params] of [["pointcloud.laz-to-las", "autzen_trim.laz", {}], ["pointcloud.convert", "point-color-time.las", { format: "xyz", color: true }]] as const) {
      const { bytes } = pointcloudFixture(file);
      const [fromBytes] = await execute(slug, [{ name: file, bytes }], params);
      const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
      const ctx = { signal: new AbortController().signal, onProgress: () => {} };
      const [fromBlob] = await runs[slug]([{ name: file, bytes: bytes.slice(0, 1024), blob, size: blob.size }], params as never, ctx);
      expect({ slug, same: same(fromBlob.bytes, fromBytes.bytes) }).toEqual({ slug, same: true });
    }
  });

  test("a LAZ of many chunks decodes chunk after chunk to the records they were made from", async () => {
    const path = await writeBigLaz(join(dir, "many.laz"), 2);
    const laz = new Uint8Array(readFileSync(path));
    const reference = pointcloudFixture("autzen_trim.las").bytes;
    const ref = parseLasHeader(reference, "autzen_trim.las");
    const { bytes } = await onHost("pointcloud.laz-to-las", hostInput("many.laz", laz));
    const las = parseLasHeader(bytes, "many.las");
    const chunkBytes = 50_000 * las.recordLength;
    expect(las.pointCount).toBeGreaterThanOrEqual(4 * 50_000);
    for (let chunk = 0; chunk < las.pointCount / 50_000; chunk++) {
      const mine = bytes.subarray(las.pointDataOffset + chunk * chunkBytes, las.pointDataOffset + (chunk + 1) * chunkBytes);
      const theirs = reference.subarray(ref.pointDataOffset + (chunk % 2) * chunkBytes, ref.pointDataOffset + ((chunk % 2) + 1) * chunkBytes);
      expect(same(mine, theirs)).toBe(true);
    }
    const [fromBytes] = await execute("pointcloud.laz-to-las", [{ name: "many.laz", bytes: laz }], {});
    expect(same(bytes, fromBytes.bytes)).toBe(true);
  });

  test.skipIf(!existsSync("/proc/self/fd"))("no host file is held open while a run is under way (a terminated worker leaves none)", async () => {
    const held = () => readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
      } catch {
        return false; // closed between listing and reading
      }
    }).length;
    const input = hostInput("autzen.laz", pointcloudFixture("autzen_trim.laz").bytes);
    const seen: number[] = [];
    const outputDir = mkdtempSync(join(dir, "out-"));
    await execute("pointcloud.convert", [input], { format: "csv" }, { outputDir, onProgress: () => void seen.push(held()) });
    expect(seen.length).toBeGreaterThan(2);
    expect(Math.max(...seen)).toBe(0);
  });

  test("variable-sized chunks and a chunk table found through the file's end give the reference LAS", async () => {
    const reference = pointcloudFixture("autzen_trim.las").bytes;
    for (const [name, laz] of [["variable.laz", await variableChunks()], ["table-at-end.laz", tableOffsetAtEnd()]] as const) {
      const { bytes } = await onHost("pointcloud.laz-to-las", hostInput(name, laz));
      expect({ name, same: same(bytes, reference) }).toEqual({ name, same: true });
    }
  });

  test("a cut file, a chunk table past the end, a table that disagrees with the header and zero points keep their codes", async () => {
    const laz = pointcloudFixture("autzen_trim.laz").bytes;
    const las = pointcloudFixture("Haystack_Rock.las").bytes;
    const lazAt = parseLasHeader(laz, "x").pointDataOffset;
    const pastEnd = laz.slice();
    new DataView(pastEnd.buffer).setBigInt64(lazAt, BigInt(laz.length + 1000), true);
    const moreAnnounced = laz.slice();
    new DataView(moreAnnounced.buffer).setUint32(H.legacyCount, 120_000, true);
    const empty = las.slice(0, parseLasHeader(las, "x").pointDataOffset);
    new DataView(empty.buffer).setUint32(H.legacyCount, 0, true);
    const cases: [string, Uint8Array, ToolErrorCode, RegExp][] = [
      ["cut.las", las.slice(0, 100_000), "INPUT_INVALID", /truncated/],
      ["cut.laz", laz.slice(0, 300_000), "INPUT_INVALID", /chunk table/],
      ["past-end.laz", pastEnd, "INPUT_INVALID", /chunk table.*would start at byte/],
      // a fixed chunk size cannot tell from the table alone: the last chunk runs dry when decoded
      ["more-announced.laz", moreAnnounced, "INPUT_INVALID", /more-announced\.laz" has damaged compressed point data/],
      ["empty.las", empty, "INPUT_EMPTY", /no points/],
      ["header-only.laz", laz.slice(0, 300), "INPUT_INVALID", /truncated|damaged/],
    ];
    for (const [name, bytes, code, message] of cases) {
      for (const [slug, params] of [["pointcloud.convert", { format: "xyz" }], ["pointcloud.decimate", {}]] as const) {
        await expectToolError(onHost(slug, hostInput(name, bytes), params), code, message);
        await expectToolError(execute(slug, [{ name, bytes }], params), code, message);
      }
    }
  });
});
