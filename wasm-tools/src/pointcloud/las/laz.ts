/**
 * LAZ point decoding with laz-perf: the whole file goes into WASM memory, points come out one
 * record at a time into a plain Uint8Array. Any decoder failure (damaged chunk, truncated file)
 * becomes INPUT_INVALID and retires the WASM instance.
 */
import { ToolError, type RunContext } from "@vektor/shared/tools/manifest";
import { errorMessage, yieldAndCheck } from "../../runtime/context";
import { discardLazPerf, loadLazPerf } from "../init";
import type { LasHeader } from "./header";
import { isLaszipVlr, parseLaszip, type VariableRecord } from "./vlr";

/** Point formats laz-perf decodes (waveform formats 4, 5, 9, 10 are not supported). */
const DECODABLE_FORMATS = new Set([0, 1, 2, 3, 6, 7, 8]);
/** Points decoded between two yields to the event loop (progress and cancellation). */
const BATCH = 50_000;

/** Decodes the compressed point records of a LAZ file. */
export async function decodeLazPoints(bytes: Uint8Array, header: LasHeader, vlrs: VariableRecord[], name: string, ctx: RunContext): Promise<Uint8Array> {
  const record = vlrs.find(isLaszipVlr);
  if (!record) throw new ToolError("INPUT_INVALID", `"${name}" is marked compressed but has no laszip VLR`);
  const laszip = parseLaszip(bytes, record, name);
  if (laszip.compressor !== 2 && laszip.compressor !== 3) {
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" uses LAZ compressor ${laszip.compressor}; only chunked LAZ (2, 3) is supported`);
  }
  if (!DECODABLE_FORMATS.has(header.pointFormat)) {
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" is LAZ with point format ${header.pointFormat}, which the decoder does not support`);
  }
  const total = header.pointCount;
  const length = header.recordLength;
  const out = new Uint8Array(total * length);
  const lib = await loadLazPerf();
  let filePointer = 0;
  let pointPointer = 0;
  let reader: InstanceType<typeof lib.LASZip> | undefined;
  let done = 0;
  let healthy = true;
  try {
    filePointer = lib._malloc(bytes.length);
    pointPointer = lib._malloc(length);
    if (!filePointer || !pointPointer) throw new ToolError("INPUT_TOO_LARGE", `"${name}" does not fit in the decoder's memory`);
    lib.HEAPU8.set(bytes, filePointer);
    reader = new lib.LASZip();
    reader.open(filePointer, bytes.length);
    if (reader.getCount() !== total || reader.getPointLength() !== length) {
      throw new ToolError("INPUT_INVALID", `"${name}" is inconsistent: the decoder sees ${reader.getCount()} points of ${reader.getPointLength()} bytes, the header ${total} of ${length}`);
    }
    while (done < total) {
      const end = Math.min(total, done + BATCH);
      for (; done < end; done++) {
        reader.getPoint(pointPointer);
        out.set(lib.HEAPU8.subarray(pointPointer, pointPointer + length), done * length);
      }
      ctx.onProgress(done / total, "decoding LAZ");
      if (done < total) await yieldAndCheck(ctx);
    }
    return out;
  } catch (err) {
    if (err instanceof ToolError) throw err;
    healthy = false;
    const where = reader ? `at point ${done + 1} of ${total}` : "while reading its chunk table";
    throw new ToolError("INPUT_INVALID", `"${name}" has damaged or truncated compressed point data (decoder failed ${where}: ${errorMessage(err).slice(0, 120)})`);
  } finally {
    if (healthy) {
      reader?.delete();
      if (pointPointer) lib._free(pointPointer);
      if (filePointer) lib._free(filePointer);
    } else {
      discardLazPerf();
    }
  }
}
