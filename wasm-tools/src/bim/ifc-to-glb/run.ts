/**
 * bim.ifc-to-glb: web-ifc's meshes, placed and coloured, written by the shared GLB writer under
 * the spatial tree. Each element's mesh goes to the GLB output as web-ifc streams it: on the
 * server its bytes go straight to a temporary file in the output folder (common/mesh/glb-output.ts).
 */
import { ToolError, type RunContext, type ToolOutput, type ToolRun } from "@vektor/shared/tools/manifest";
import { openGlbOutput, type GlbOutput } from "../../common/mesh/glb-output";
import type { SceneNode } from "../../common/mesh/types";
import { checkpoint, stem } from "../../runtime/context";
import { streamElementGeometries } from "../common/geometry";
import { label, readLine, withModel, type IfcModel } from "../common/open";
import { spatialStructure, type SpatialNode } from "../common/spatial";
import type { Params } from "./manifest";

/** Name, type and GlobalId of an entity, for node names and extras. */
function describe(model: IfcModel, expressId: number) {
  const line = readLine(model, expressId);
  const type = model.api.GetNameFromTypeCode(line.type);
  const name = label(line.Name);
  return { name: name || `${type} #${expressId}`, extras: { ifcType: type, globalId: label(line.GlobalId), expressId } };
}

export const run: ToolRun<Params> = async ([input], { coordinateToOrigin }, ctx) => {
  ctx.onProgress(0.02, "reading IFC");
  const glb = await openGlbOutput(ctx, `${stem(input.name)}.glb`, { generator: "vektor bim.ifc-to-glb (web-ifc)", doubleSided: true });
  try {
    return [await withModel(input, { coordinateToOrigin }, (model) => writeScene(model, input.name, glb, ctx))];
  } catch (err) {
    await glb.discard();
    throw err;
  }
};

/** Adds every element's mesh to `glb` as web-ifc streams it (on the server straight to disk), then writes the GLB under the spatial tree. */
async function writeScene(model: IfcModel, name: string, glb: GlbOutput, ctx: RunContext): Promise<ToolOutput> {
  checkpoint(ctx);
  const partOf = new Map<number, number>();
  // Each element's line is read once, as its mesh comes: its node needs the same facts later.
  const described = new Map<number, ReturnType<typeof describe>>();
  streamElementGeometries(
    model,
    (g) => {
      const facts = describe(model, g.expressId);
      described.set(g.expressId, facts);
      partOf.set(g.expressId, glb.addPart({ name: facts.name, primitives: g.primitives }));
    },
    (done, total) => {
      if (done % 64 === 0) ctx.onProgress(0.05 + (0.8 * done) / Math.max(1, total), "meshing");
    },
  );
  if (described.size === 0) throw new ToolError("INPUT_EMPTY", `"${name}" has no elements with geometry`);
  checkpoint(ctx);
  ctx.onProgress(0.85, "writing GLB");

  const { root, parts: decomposition } = spatialStructure(model);
  const placed = new Set<number>();
  const elementNode = (expressId: number): SceneNode => {
    placed.add(expressId);
    const children = (decomposition.get(expressId) ?? []).filter((c) => !placed.has(c)).map(elementNode);
    return { ...(described.get(expressId) ?? describe(model, expressId)), part: partOf.get(expressId), children };
  };
  const spatialNode = (node: SpatialNode): SceneNode => {
    placed.add(node.expressId);
    const children = [...node.children.map(spatialNode), ...node.elements.filter((e) => !placed.has(e)).map(elementNode)];
    return { ...describe(model, node.expressId), part: partOf.get(node.expressId), children };
  };
  const roots = root ? [spatialNode(root)] : [];
  // Elements with geometry outside the spatial tree still belong in the scene.
  for (const expressId of described.keys()) if (!placed.has(expressId)) roots.push(elementNode(expressId));
  return glb.finish(roots);
}
