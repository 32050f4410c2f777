/** pointcloud.convert: writers for PLY, XYZ and CSV, fed a block of decoded records at a time. */
import type { RunContext, ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { BLOCK_POINTS, pointBlocks, withPointCloud, type PointCloud } from "../las/cloud";
import { writeOutput } from "../las/output";
import { decimalsFor, pointReader, type PointReader } from "../las/points";
import type { Params } from "./manifest";

/**
 * How one output format turns blocks of records into bytes. A block's bytes are valid until the
 * next block: the buffer is reused (big buffers dropped after each block pile up outside the
 * collector's sight, and the worker's memory with them).
 */
interface FormatWriter {
  head: Uint8Array;
  block(records: Uint8Array): Uint8Array;
  /** The whole output's size, when known before writing. */
  size?: number;
}

type Rgb = (c: number) => number;

export const run: ToolRun<Params> = async ([input], { format, color }, ctx) =>
  withPointCloud(input, async (cloud) => {
    const rgb = color && cloud.layout.rgb !== undefined;
    // PLY and XYZ write 8-bit colour: a scan first finds which scale the file uses.
    const to8 = rgb && format !== "csv" ? await eightBit(cloud, ctx) : undefined;
    const start = to8 ? 0.5 : 0;
    const writer = format === "ply" ? plyWriter(cloud, input.name, to8) : textWriter(cloud, format, rgb, to8);
    const out = await writeOutput(ctx, `${stem(stem(input.name))}.${format}`, format, writer.size, async (sink) => {
      await sink.write(writer.head);
      for await (const block of pointBlocks(cloud, ctx, `writing ${format}`, [start, 1])) await sink.write(writer.block(block));
    });
    return [out];
  });

/** LAS colour is 16-bit but many files store 0-255: scale down only when some value exceeds 255. */
async function eightBit(cloud: PointCloud, ctx: RunContext): Promise<Rgb> {
  for await (const block of pointBlocks(cloud, ctx, "reading colours", [0, 0.5])) {
    const points = pointReader(cloud, block);
    for (let i = 0; i < points.count; i++) if (points.rgb!(i).some((c) => c > 255)) return (c) => c >> 8;
  }
  return (c) => c;
}

function textWriter(cloud: PointCloud, format: "xyz" | "csv", rgb: boolean, to8: Rgb | undefined): FormatWriter {
  const decimals = cloud.header.scale.map(decimalsFor);
  const sep = format === "csv" ? "," : " ";
  const encoder = new TextEncoder();
  const columns = ["x", "y", "z", "intensity", "return_number", "number_of_returns", "classification"];
  if (cloud.layout.time !== undefined) columns.push("gps_time");
  if (rgb) columns.push("red", "green", "blue");
  const rowOf = (p: PointReader) => {
    const coords = (i: number) => `${p.x(i).toFixed(decimals[0])}${sep}${p.y(i).toFixed(decimals[1])}${sep}${p.z(i).toFixed(decimals[2])}`;
    if (format === "xyz") return to8 ? (i: number) => `${coords(i)} ${p.rgb!(i).map(to8).join(" ")}` : coords;
    return (i: number) => {
      let line = `${coords(i)},${p.intensity(i)},${p.returnNumber(i)},${p.numberOfReturns(i)},${p.classification(i)}`;
      if (p.time) line += `,${p.time(i)}`;
      if (rgb) line += `,${p.rgb!(i).join(",")}`;
      return line;
    };
  };
  let buffer = new Uint8Array(0);
  return {
    head: encoder.encode(format === "csv" ? `${columns.join(",")}\n` : ""),
    block(records) {
      const points = pointReader(cloud, records);
      const row = rowOf(points);
      const lines = new Array<string>(points.count);
      for (let i = 0; i < points.count; i++) lines[i] = row(i);
      const text = `${lines.join("\n")}\n`;
      // ASCII only (digits, signs, separators): one byte a character.
      if (buffer.length < text.length) buffer = new Uint8Array(Math.ceil(text.length * 1.25));
      return buffer.subarray(0, encoder.encodeInto(text, buffer).written);
    },
  };
}

function plyWriter(cloud: PointCloud, name: string, to8: Rgb | undefined): FormatWriter {
  const lines = ["ply", "format binary_little_endian 1.0", `comment converted from ${name.replace(/[\r\n]/g, " ")}`, `element vertex ${cloud.count}`, "property double x", "property double y", "property double z"];
  if (to8) lines.push("property uchar red", "property uchar green", "property uchar blue");
  lines.push("end_header", "");
  const head = new TextEncoder().encode(lines.join("\n"));
  const stride = to8 ? 27 : 24;
  const out = new Uint8Array(stride * BLOCK_POINTS);
  const v = new DataView(out.buffer);
  return {
    head,
    size: head.length + stride * cloud.count,
    block(records) {
      const points = pointReader(cloud, records);
      for (let i = 0; i < points.count; i++) {
        const at = i * stride;
        v.setFloat64(at, points.x(i), true);
        v.setFloat64(at + 8, points.y(i), true);
        v.setFloat64(at + 16, points.z(i), true);
        if (to8) {
          const [r, g, b] = points.rgb!(i);
          v.setUint8(at + 24, to8(r));
          v.setUint8(at + 25, to8(g));
          v.setUint8(at + 26, to8(b));
        }
      }
      return out.subarray(0, stride * points.count);
    },
  };
}
