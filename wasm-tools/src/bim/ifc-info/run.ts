/** bim.ifc-info: schema, header, counts per IFC type, spatial tree and geometry counts, as JSON. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, jsonBytes, output, stem } from "../../runtime/context";
import { paceGarbage } from "../../runtime/engine-garbage";
import { WebIFC } from "../init";
import { countGeometry } from "../common/geometry";
import { idsOf, label, plain, readLine, refs, withModel, type IfcModel } from "../common/open";
import { spatialStructure, type SpatialNode } from "../common/spatial";
import type { Params } from "./manifest";

interface TreeNode {
  type: string;
  name: string | null;
  longName: string | null;
  globalId: string | null;
  elevation?: number;
  /** Elements placed directly in this node. */
  elementCount: number;
  children: TreeNode[];
}

function tree(node: SpatialNode): TreeNode {
  return {
    type: node.type,
    name: node.name,
    longName: node.longName,
    globalId: node.globalId,
    ...(node.elevation !== null ? { elevation: node.elevation } : {}),
    elementCount: node.elements.length,
    children: node.children.map(tree),
  };
}

/** A header line's arguments as plain values (lists of labels become string arrays). */
function headerArguments(model: IfcModel, line: number): unknown[] {
  try {
    const header = model.api.GetHeaderLine(model.id, line) as { arguments?: unknown[] } | undefined;
    return (header?.arguments ?? []).map((a) => (Array.isArray(a) ? a.map((x) => label(x)) : plain(a)));
  } catch {
    return [];
  }
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** The project's length unit as IFC spells it (MILLIMETRE, METRE, FOOT ...), or null. */
function lengthUnit(model: IfcModel): string | null {
  for (const assignment of idsOf(model, WebIFC.IFCUNITASSIGNMENT)) {
    for (const unit of refs(readLine(model, assignment).Units)) {
      const line = readLine(model, unit);
      if (plain(line.UnitType) !== "LENGTHUNIT") continue;
      return `${plain(line.Prefix) ?? ""}${label(line.Name) ?? ""}` || null;
    }
  }
  return null;
}

export const run: ToolRun<Params> = async ([input], _params, ctx) => {
  ctx.onProgress(0.05, "reading IFC");
  const report = await withModel(input, {}, (model) => {
    const { api, id } = model;
    const [description] = headerArguments(model, WebIFC.FILE_DESCRIPTION);
    const [fileName, timeStamp, author, organization, preprocessor, originatingSystem, authorization] = headerArguments(model, WebIFC.FILE_NAME);
    const counts = new Map<string, number>();
    const products = idsOf(model, WebIFC.IFCPRODUCT);
    for (const expressId of products) {
      paceGarbage();
      const type = api.GetNameFromTypeCode(api.GetLineType(id, expressId));
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    const typeCounts = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const { root } = spatialStructure(model);
    checkpoint(ctx);
    ctx.onProgress(0.3, "meshing");
    const geometry = countGeometry(model);
    return {
      schema: model.schema,
      header: {
        description: texts(description),
        fileName: text(fileName),
        timeStamp: text(timeStamp),
        author: texts(author),
        organization: texts(organization),
        preprocessor: text(preprocessor),
        originatingSystem: text(originatingSystem),
        authorization: text(authorization),
      },
      lengthUnit: lengthUnit(model),
      entityCount: api.GetAllLines(id).size(),
      elementCount: products.length,
      typeCounts,
      elementsWithGeometry: geometry.elements,
      triangles: geometry.triangles,
      spatialTree: root ? tree(root) : null,
    };
  });
  return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
};
