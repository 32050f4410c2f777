/** pointcloud.laz-to-las: laz-perf decodes chunk by chunk, the LAS writer rebuilds the file around the records as they come. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { pointBlocks, withPointCloud } from "../las/cloud";
import { writeOutput } from "../las/output";
import { lasLayout, writeLas } from "../las/write-las";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], _params, ctx) =>
  withPointCloud(input, async (cloud) => {
    if (!cloud.header.compressed) throw new ToolError("INPUT_INVALID", `"${input.name}" is already uncompressed LAS`);
    const base = stem(input.name);
    const name = base.toLowerCase().endsWith(".las") ? base : `${base}.las`;
    const las = await writeOutput(ctx, name, "las", lasLayout(cloud, cloud.count).size, (sink) => writeLas(sink, cloud, pointBlocks(cloud, ctx, "decoding LAZ"), cloud.count));
    return [las];
  });
