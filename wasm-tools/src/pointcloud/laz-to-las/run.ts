/** pointcloud.laz-to-las: laz-perf decodes, the LAS writer rebuilds the file around the records. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem } from "../../runtime/context";
import { readPointCloud, writeLas } from "../las/cloud";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], _params, ctx) => {
  const cloud = await readPointCloud(input, ctx);
  if (!cloud.header.compressed) throw new ToolError("INPUT_INVALID", `"${input.name}" is already uncompressed LAS`);
  const base = stem(input.name);
  const name = base.toLowerCase().endsWith(".las") ? base : `${base}.las`;
  return [output(name, "las", writeLas(cloud, cloud.points))];
};
