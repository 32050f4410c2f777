/** mesh.convert: read with three.js's loaders (or the 3MF reader), write with the shared mesh writers. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem } from "../../runtime/context";
import { readMesh } from "../common/read";
import { writeMesh } from "../common/write";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], { to, stlAscii }, ctx) => {
  ctx.onProgress(0.05, "reading");
  const { format, scene } = await readMesh(input);
  ctx.onProgress(0.6, `writing ${to.toUpperCase()}`);
  const bytes = writeMesh(scene, to, { name: stem(input.name), generator: `vektor mesh.convert from ${format}`, stlAscii });
  return [output(`${stem(input.name)}.${to}`, to, bytes)];
};
