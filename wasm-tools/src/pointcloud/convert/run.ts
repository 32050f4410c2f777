/** pointcloud.convert: writers for PLY, XYZ and CSV over the decoded records. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem, yieldAndCheck } from "../../runtime/context";
import { readPointCloud } from "../las/cloud";
import { decimalsFor, pointReader, type PointReader } from "../las/points";
import type { Params } from "./manifest";

const ROWS_PER_BLOCK = 65_536;

export const run: ToolRun<Params> = async ([input], { format, color }, ctx) => {
  const cloud = await readPointCloud(input, ctx);
  const points = pointReader(cloud);
  const base = stem(stem(input.name));
  const rgb = color ? points.rgb : undefined;
  if (format === "ply") return [output(`${base}.ply`, "ply", writePly(points, rgb, input.name))];
  const decimals = cloud.header.scale.map(decimalsFor);
  const sep = format === "csv" ? "," : " ";
  const coords = (i: number) => `${points.x(i).toFixed(decimals[0])}${sep}${points.y(i).toFixed(decimals[1])}${sep}${points.z(i).toFixed(decimals[2])}`;
  let header = "";
  let row: (i: number) => string;
  if (format === "xyz") {
    const to8 = rgb && eightBit(points, rgb);
    row = rgb && to8 ? (i) => `${coords(i)} ${rgb(i).map(to8).join(" ")}` : coords;
  } else {
    const time = points.time;
    const columns = ["x", "y", "z", "intensity", "return_number", "number_of_returns", "classification"];
    if (time) columns.push("gps_time");
    if (rgb) columns.push("red", "green", "blue");
    header = `${columns.join(",")}\n`;
    row = (i) => {
      let line = `${coords(i)},${points.intensity(i)},${points.returnNumber(i)},${points.numberOfReturns(i)},${points.classification(i)}`;
      if (time) line += `,${time(i)}`;
      if (rgb) line += `,${rgb(i).join(",")}`;
      return line;
    };
  }
  const encoder = new TextEncoder();
  const blocks: Uint8Array[] = [encoder.encode(header)];
  for (let start = 0; start < points.count; start += ROWS_PER_BLOCK) {
    const end = Math.min(points.count, start + ROWS_PER_BLOCK);
    const lines = new Array<string>(end - start);
    for (let i = start; i < end; i++) lines[i - start] = row(i);
    blocks.push(encoder.encode(`${lines.join("\n")}\n`));
    ctx.onProgress(end / points.count, `writing ${format}`);
    await yieldAndCheck(ctx);
  }
  return [output(`${base}.${format}`, format, concat(blocks))];
};

/** LAS colour is 16-bit but many files store 0-255: scale down only when some value exceeds 255. */
function eightBit(points: PointReader, rgb: (i: number) => [number, number, number]): (c: number) => number {
  for (let i = 0; i < points.count; i++) if (rgb(i).some((c) => c > 255)) return (c) => c >> 8;
  return (c) => c;
}

function writePly(points: PointReader, rgb: PointReader["rgb"], name: string): Uint8Array {
  const to8 = rgb && eightBit(points, rgb);
  const lines = ["ply", "format binary_little_endian 1.0", `comment converted from ${name.replace(/[\r\n]/g, " ")}`, `element vertex ${points.count}`, "property double x", "property double y", "property double z"];
  if (rgb) lines.push("property uchar red", "property uchar green", "property uchar blue");
  lines.push("end_header", "");
  const head = new TextEncoder().encode(lines.join("\n"));
  const stride = rgb ? 27 : 24;
  const out = new Uint8Array(head.length + stride * points.count);
  out.set(head);
  const v = new DataView(out.buffer, head.length);
  for (let i = 0; i < points.count; i++) {
    const at = i * stride;
    v.setFloat64(at, points.x(i), true);
    v.setFloat64(at + 8, points.y(i), true);
    v.setFloat64(at + 16, points.z(i), true);
    if (rgb && to8) {
      const [r, g, b] = rgb(i);
      v.setUint8(at + 24, to8(r));
      v.setUint8(at + 25, to8(g));
      v.setUint8(at + 26, to8(b));
    }
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
