/** pointcloud.decimate over raw records; the header is rewritten from the kept points. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, output, stem } from "../../runtime/context";
import { readPointCloud, writeLas } from "../las/cloud";
import { pointStats } from "../las/points";
import type { Params } from "./manifest";

/** Indexes of the kept points: every `every`th from the first, or `round(count * fraction)` (at least one) evenly spaced. */
export function keptIndexes(count: number, every: number, fraction?: number): number[] {
  if (fraction === undefined) return Array.from({ length: Math.ceil(count / every) }, (_, k) => k * every);
  const keep = Math.min(count, Math.max(1, Math.round(count * fraction)));
  return Array.from({ length: keep }, (_, k) => Math.floor((k * count) / keep));
}

export const run: ToolRun<Params> = async ([input], { every, fraction }, ctx) => {
  const cloud = await readPointCloud(input, ctx);
  checkpoint(ctx);
  const len = cloud.header.recordLength;
  const kept = keptIndexes(cloud.count, every, fraction);
  const points = new Uint8Array(kept.length * len);
  kept.forEach((index, k) => points.set(cloud.points.subarray(index * len, (index + 1) * len), k * len));
  checkpoint(ctx);
  const las = writeLas(cloud, points, { stats: pointStats(cloud, points) });
  return [output(`${stem(stem(input.name))}-decimated.las`, "las", las)];
};
