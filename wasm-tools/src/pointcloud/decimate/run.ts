/** pointcloud.decimate over raw records, a block at a time; the header is rewritten from the kept points. */
import type { RunContext, ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { BLOCK_POINTS, pointBlocks, withPointCloud, type PointCloud } from "../las/cloud";
import { writeOutput } from "../las/output";
import { StatsGatherer } from "../las/points";
import { lasLayout, writeLas } from "../las/write-las";
import type { Params } from "./manifest";

/** Which points are kept: `keep` of them, the k-th at index `at(k)` (increasing). */
export interface Selection {
  keep: number;
  at(k: number): number;
}

/** Every `every`th point from the first, or `round(count * fraction)` (at least one) evenly spaced. */
export function selection(count: number, every: number, fraction?: number): Selection {
  if (fraction === undefined) return { keep: Math.ceil(count / every), at: (k) => k * every };
  const keep = Math.min(count, Math.max(1, Math.round(count * fraction)));
  return { keep, at: (k) => Math.floor((k * count) / keep) };
}

/** Indexes of the kept points (for tests and small counts). */
export function keptIndexes(count: number, every: number, fraction?: number): number[] {
  const s = selection(count, every, fraction);
  return Array.from({ length: s.keep }, (_, k) => s.at(k));
}

/** The kept records of each block, gathered into the stats as they pass. */
async function* keptBlocks(cloud: PointCloud, chosen: Selection, stats: StatsGatherer, ctx: RunContext): AsyncGenerator<Uint8Array> {
  const len = cloud.header.recordLength;
  const buffer = new Uint8Array(BLOCK_POINTS * len); // reused: a block's kept records are written before the next
  let start = 0;
  let k = 0;
  for await (const block of pointBlocks(cloud, ctx, "thinning")) {
    const end = start + block.length / len;
    let n = 0;
    for (; k < chosen.keep && chosen.at(k) < end; k++, n++) {
      const i = chosen.at(k) - start;
      buffer.set(block.subarray(i * len, (i + 1) * len), n * len);
    }
    const out = buffer.subarray(0, n * len);
    stats.add(out);
    yield out;
    start = end;
  }
}

export const run: ToolRun<Params> = async ([input], { every, fraction }, ctx) =>
  withPointCloud(input, async (cloud) => {
    const chosen = selection(cloud.count, every, fraction);
    const stats = new StatsGatherer(cloud);
    const name = `${stem(stem(input.name))}-decimated.las`;
    const las = await writeOutput(ctx, name, "las", lasLayout(cloud, chosen.keep).size, (sink) => writeLas(sink, cloud, keptBlocks(cloud, chosen, stats, ctx), chosen.keep, () => stats.stats()));
    return [las];
  });
