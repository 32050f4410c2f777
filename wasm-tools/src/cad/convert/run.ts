/** cad.convert: occt-import-js reads and meshes the model; the shared writers produce GLB, STL or OBJ. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { writeGlb } from "../../common/mesh/glb";
import { writeObj } from "../../common/mesh/obj";
import { writeStl } from "../../common/mesh/stl";
import { checkpoint, output, stem } from "../../runtime/context";
import { readCad } from "../common/read";
import { cadScene } from "../common/scene";
import type { Params } from "./manifest";

/** Millimetres per output unit. */
const UNIT_SCALE = { mm: 1, cm: 0.1, m: 0.001, in: 1 / 25.4 } as const;

export const run: ToolRun<Params> = async ([input], { format, linearDeflection, angularDeflection, unit }, ctx) => {
  ctx.onProgress(0.05, "reading and meshing");
  const model = await readCad(input, { linearDeflection, angularDeflection });
  checkpoint(ctx);
  ctx.onProgress(0.8, `writing ${format.toUpperCase()}`);
  const scene = cadScene(model);
  const scale = UNIT_SCALE[unit ?? (format === "glb" ? "m" : "mm")];
  const source = `${input.name} (${model.format.toUpperCase()})`;
  const base = stem(input.name);
  if (format === "stl") return [output(`${base}.stl`, "stl", writeStl(scene, { header: `Binary STL from ${source} by vektor cad.convert`, scale }))];
  if (format === "obj") return [output(`${base}.obj`, "obj", writeObj(scene, { comment: `${source} converted by vektor cad.convert`, scale }))];
  return [output(`${base}.glb`, "glb", writeGlb(scene, { generator: "vektor cad.convert (OpenCascade via occt-import-js)", scale }))];
};
