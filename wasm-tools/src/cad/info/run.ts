/** cad.info: the parts, colours, triangle counts and size of a CAD model, as JSON. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { hexColor } from "../../common/mesh/color";
import { jsonBytes, output, stem } from "../../runtime/context";
import { readCad, type CadPart } from "../common/read";
import type { Params } from "./manifest";

/** Rounded to a micrometre (in mm) so float noise does not show in the report. */
function round(v: number): number {
  const r = Number(v.toFixed(6));
  return r === 0 ? 0 : r;
}

function box(min: number[], max: number[]) {
  return { min: min.map(round), max: max.map(round), size: max.map((v, i) => round(v - min[i])) };
}

function describePart(part: CadPart) {
  const faceColors = [...new Set(part.faces.flatMap((f) => (f.color ? [hexColor(f.color)] : [])))];
  return {
    name: part.name,
    path: part.path,
    triangles: Math.floor(part.indices.length / 3),
    vertices: part.positions.length / 3,
    faces: part.faces.length,
    color: part.color ? hexColor(part.color) : null,
    faceColors,
    boundingBox: box(part.min, part.max),
  };
}

export const run: ToolRun<Params> = async ([input], { linearDeflection, angularDeflection }, ctx) => {
  ctx.onProgress(0.05, "reading and meshing");
  const model = await readCad(input, { linearDeflection, angularDeflection });
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const part of model.parts) {
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], part.min[a]);
      max[a] = Math.max(max[a], part.max[a]);
    }
  }
  const parts = model.parts.map(describePart);
  const report = {
    sourceFormat: model.format,
    unit: model.format === "brep" ? "unspecified" : "mm", // BREP files store no unit
    partCount: parts.length,
    totalTriangles: parts.reduce((sum, p) => sum + p.triangles, 0),
    totalVertices: parts.reduce((sum, p) => sum + p.vertices, 0),
    boundingBox: box(min, max),
    colors: [...new Set(parts.flatMap((p) => [...(p.color ? [p.color] : []), ...p.faceColors]))].sort(),
    mesh: { linearDeflection, angularDeflection },
    parts,
  };
  return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
};
