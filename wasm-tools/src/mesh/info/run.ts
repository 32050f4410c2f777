/** mesh.info: counts, bounds, watertightness and unit of a mesh. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { jsonBytes, output, stem } from "../../runtime/context";
import { measure } from "../common/measure";
import { readMesh } from "../common/read";
import type { Params } from "./manifest";

const round = (v: number) => Number(v.toFixed(6)) || 0;

export const run: ToolRun<Params> = async ([input], _params, ctx) => {
  ctx.onProgress(0.05, "reading");
  const { format, scene, unit } = await readMesh(input);
  ctx.onProgress(0.6, "measuring");
  const m = measure(scene);
  const report = {
    format,
    unit,
    parts: scene.parts.map((p) => p.name),
    triangles: m.triangles,
    vertices: m.vertices,
    boundingBox: { min: m.min.map(round), max: m.max.map(round), size: m.max.map((v, i) => round(v - m.min[i])) },
    watertight: m.watertight,
    openEdges: m.openEdges,
    nonManifoldEdges: m.nonManifoldEdges,
  };
  return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
};
