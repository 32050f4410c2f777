/**
 * Elements and their property sets: every IfcProduct with its GlobalId, IFC type and Name, and
 * the property sets (IfcPropertySet) and quantity sets (IfcElementQuantity) attached to it
 * directly (IfcRelDefinesByProperties) or through its type object (IfcRelDefinesByType).
 */
import { WebIFC } from "../init";
import { idsOf, label, plain, readLine, refs, type IfcModel } from "./open";

/** A property's value: text, number or boolean; lists and ranges as text; null when unset. */
export type PropertyValue = string | number | boolean | null;

/** One property set or quantity set, with its properties in file order. */
export interface PropertySet {
  name: string | null;
  /** `properties` (IfcPropertySet) or `quantities` (IfcElementQuantity). */
  kind: "properties" | "quantities";
  /** `element` when attached to the element itself, `type` when inherited from its type object. */
  source: "element" | "type";
  properties: { name: string; value: PropertyValue }[];
}

/** One IfcProduct and its property sets. */
export interface ElementProperties {
  expressId: number;
  globalId: string | null;
  type: string;
  name: string | null;
  /** Name of its type object (IfcWallType ...), if it has one. */
  typeName: string | null;
  propertySets: PropertySet[];
}

/** The value attributes of the property and quantity entities, in the order they are looked for. */
const VALUE_KEYS = ["NominalValue", "LengthValue", "AreaValue", "VolumeValue", "CountValue", "WeightValue", "TimeValue"];

function listValue(attribute: unknown): string | null {
  if (!Array.isArray(attribute)) return null;
  return attribute.map((v) => String(plain(v) ?? "")).join("; ");
}

/** Flattens one property or quantity line (complex properties become `Parent.Child`). */
function readProperty(model: IfcModel, expressId: number, prefix: string, out: { name: string; value: PropertyValue }[], depth = 0): void {
  const line = readLine(model, expressId);
  const name = `${prefix}${label(line.Name) ?? `#${expressId}`}`;
  const nested = line.HasProperties ?? line.HasQuantities; // complex properties and quantities
  if (nested && depth < 4) {
    for (const child of refs(nested)) readProperty(model, child, `${name}.`, out, depth + 1);
    return;
  }
  for (const key of VALUE_KEYS) {
    if (line[key] !== undefined) {
      out.push({ name, value: plain(line[key]) });
      return;
    }
  }
  if (line.EnumerationValues !== undefined) return void out.push({ name, value: listValue(line.EnumerationValues) });
  if (line.ListValues !== undefined) return void out.push({ name, value: listValue(line.ListValues) });
  if (line.LowerBoundValue !== undefined || line.UpperBoundValue !== undefined) {
    const low = plain(line.LowerBoundValue);
    const high = plain(line.UpperBoundValue);
    return void out.push({ name, value: `${low ?? ""}..${high ?? ""}` });
  }
  if (line.PropertyReference !== undefined) return void out.push({ name, value: refs(line.PropertyReference).map((r) => `#${r}`).join(" ") || null });
  out.push({ name, value: null });
}

/** Reads a property definition (set of properties or quantities); other definitions give null. */
function readSet(model: IfcModel, expressId: number, source: PropertySet["source"]): PropertySet | null {
  const line = readLine(model, expressId);
  const properties: PropertySet["properties"] = [];
  let kind: PropertySet["kind"];
  if (line.HasProperties !== undefined) {
    kind = "properties";
    for (const p of refs(line.HasProperties)) readProperty(model, p, "", properties);
  } else if (line.Quantities !== undefined) {
    kind = "quantities";
    for (const q of refs(line.Quantities)) readProperty(model, q, "", properties);
  } else {
    return null;
  }
  return { name: label(line.Name), kind, source, properties };
}

/**
 * Every IfcProduct (spatial elements included) with its property sets, by ascending express id:
 * how many there are, and the elements one at a time, so a big model's need not all be held.
 * A property set read for one element is kept only while other elements may still need it (it
 * is shared, or comes from a type object).
 */
export function elementProperties(model: IfcModel): { count: number; elements: Generator<ElementProperties> } {
  const definitions = new Map<number, number[]>();
  const sharedBy = new Map<number, number>();
  for (const rel of idsOf(model, WebIFC.IFCRELDEFINESBYPROPERTIES)) {
    const line = readLine(model, rel);
    const sets = refs(line.RelatingPropertyDefinition);
    for (const object of refs(line.RelatedObjects)) {
      definitions.set(object, [...(definitions.get(object) ?? []), ...sets]);
      for (const s of sets) sharedBy.set(s, (sharedBy.get(s) ?? 0) + 1);
    }
  }
  const typeOf = new Map<number, number>();
  for (const rel of idsOf(model, WebIFC.IFCRELDEFINESBYTYPE)) {
    const line = readLine(model, rel);
    const [type] = refs(line.RelatingType);
    if (type !== undefined) for (const object of refs(line.RelatedObjects)) typeOf.set(object, type);
  }
  const cache = new Map<string, PropertySet | null>();
  const set = (expressId: number, source: PropertySet["source"]) => {
    if (source === "element" && sharedBy.get(expressId) === 1) return readSet(model, expressId, source);
    const key = `${source}:${expressId}`;
    if (!cache.has(key)) cache.set(key, readSet(model, expressId, source));
    return cache.get(key) ?? null;
  };
  const products = idsOf(model, WebIFC.IFCPRODUCT);
  return { count: products.length, elements: productsWithSets(model, products, definitions, typeOf, set) };
}

function* productsWithSets(
  model: IfcModel,
  products: number[],
  definitions: Map<number, number[]>,
  typeOf: Map<number, number>,
  set: (expressId: number, source: PropertySet["source"]) => PropertySet | null,
): Generator<ElementProperties> {
  for (const expressId of products) {
    const line = readLine(model, expressId);
    const propertySets: PropertySet[] = [];
    for (const s of definitions.get(expressId) ?? []) {
      const read = set(s, "element");
      if (read) propertySets.push(read);
    }
    const type = typeOf.get(expressId);
    let typeName: string | null = null;
    if (type !== undefined) {
      const typeLine = readLine(model, type);
      typeName = label(typeLine.Name);
      for (const s of refs(typeLine.HasPropertySets)) {
        const read = set(s, "type");
        if (read) propertySets.push(read);
      }
    }
    yield { expressId, globalId: label(line.GlobalId), type: model.api.GetNameFromTypeCode(line.type), name: label(line.Name), typeName, propertySets };
  }
}
