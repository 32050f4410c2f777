/** bim.ifc-to-glb: web-ifc's meshes, placed and coloured, written by the shared GLB writer under the spatial tree. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { writeGlb } from "../../common/mesh/glb";
import type { MeshPart, SceneNode } from "../../common/mesh/types";
import { checkpoint, output, stem } from "../../runtime/context";
import { elementGeometries } from "../common/geometry";
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
  const bytes = await withModel(input, { coordinateToOrigin }, (model) => {
    checkpoint(ctx);
    const geometries = elementGeometries(model, (done, total) => {
      if (done % 64 === 0) ctx.onProgress(0.05 + (0.8 * done) / Math.max(1, total), "meshing");
    });
    if (geometries.length === 0) throw new ToolError("INPUT_EMPTY", `"${input.name}" has no elements with geometry`);
    checkpoint(ctx);
    ctx.onProgress(0.85, "writing GLB");

    const partOf = new Map<number, number>();
    const parts: MeshPart[] = geometries.map((g, i) => {
      partOf.set(g.expressId, i);
      return { name: describe(model, g.expressId).name, primitives: g.primitives };
    });
    const { root, parts: decomposition } = spatialStructure(model);
    const placed = new Set<number>();
    const elementNode = (expressId: number): SceneNode => {
      placed.add(expressId);
      const children = (decomposition.get(expressId) ?? []).filter((c) => !placed.has(c)).map(elementNode);
      return { ...describe(model, expressId), part: partOf.get(expressId), children };
    };
    const spatialNode = (node: SpatialNode): SceneNode => {
      placed.add(node.expressId);
      const children = [...node.children.map(spatialNode), ...node.elements.filter((e) => !placed.has(e)).map(elementNode)];
      return { ...describe(model, node.expressId), part: partOf.get(node.expressId), children };
    };
    const roots = root ? [spatialNode(root)] : [];
    // Elements with geometry outside the spatial tree still belong in the scene.
    for (const g of geometries) if (!placed.has(g.expressId)) roots.push(elementNode(g.expressId));
    return writeGlb({ parts, roots }, { generator: "vektor bim.ifc-to-glb (web-ifc)", doubleSided: true });
  });
  return [output(`${stem(input.name)}.glb`, "glb", bytes)];
};
