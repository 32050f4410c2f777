/**
 * The spatial structure of an IFC model: project, sites, buildings, storeys (and spaces), from
 * IfcRelAggregates, with the elements each one contains (IfcRelContainedInSpatialStructure) and
 * the parts elements are made of (IfcRelAggregates between elements, e.g. a stair's flights).
 */
import { WebIFC } from "../init";
import { idsOf, label, plain, readLine, refs, type IfcModel } from "./open";

/** A node of the spatial tree. */
export interface SpatialNode {
  expressId: number;
  type: string;
  name: string | null;
  longName: string | null;
  globalId: string | null;
  /** Storeys only: height above the building's base, in the file's length unit. */
  elevation: number | null;
  /** Elements placed directly in this node, by express id (ascending). */
  elements: number[];
  children: SpatialNode[];
}

/** Relationship indexes the tools share. */
export interface Structure {
  /** The project's tree (null when the file has no IfcProject). */
  root: SpatialNode | null;
  /** Element -> its parts (aggregation between non-spatial objects). */
  parts: Map<number, number[]>;
}

function push(map: Map<number, number[]>, key: number, values: number[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, [...values]);
}

/** The spatial tree and the element decomposition of `model`. */
export function spatialStructure(model: IfcModel): Structure {
  const { api, id } = model;
  const spatial = new Set([...idsOf(model, WebIFC.IFCSPATIALSTRUCTUREELEMENT), ...idsOf(model, WebIFC.IFCSPATIALELEMENT)]);
  const aggregates = new Map<number, number[]>();
  for (const rel of idsOf(model, WebIFC.IFCRELAGGREGATES)) {
    const line = readLine(model, rel);
    for (const parent of refs(line.RelatingObject)) push(aggregates, parent, refs(line.RelatedObjects));
  }
  const contained = new Map<number, number[]>();
  for (const rel of idsOf(model, WebIFC.IFCRELCONTAINEDINSPATIALSTRUCTURE)) {
    const line = readLine(model, rel);
    for (const structure of refs(line.RelatingStructure)) push(contained, structure, refs(line.RelatedElements));
  }
  const parts = new Map<number, number[]>();
  for (const [parent, children] of aggregates) {
    if (spatial.has(parent)) continue;
    const own = children.filter((c) => !spatial.has(c));
    if (own.length) parts.set(parent, own.sort((a, b) => a - b));
  }

  const seen = new Set<number>();
  const build = (expressId: number): SpatialNode => {
    seen.add(expressId);
    const line = readLine(model, expressId);
    const children = (aggregates.get(expressId) ?? [])
      .filter((c) => spatial.has(c) && !seen.has(c))
      .sort((a, b) => a - b)
      .map(build);
    const elevation = plain(line.Elevation);
    return {
      expressId,
      type: api.GetNameFromTypeCode(line.type),
      name: label(line.Name),
      longName: label(line.LongName),
      globalId: label(line.GlobalId),
      elevation: typeof elevation === "number" ? elevation : null,
      elements: [...new Set(contained.get(expressId) ?? [])].sort((a, b) => a - b),
      children,
    };
  };
  const project = idsOf(model, WebIFC.IFCPROJECT)[0];
  return { root: project === undefined ? null : build(project), parts };
}
