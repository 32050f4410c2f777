/** bim.ifc-properties: every IfcProduct with its property and quantity sets, as JSON or a flat CSV. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { jsonBytes, output, stem } from "../../runtime/context";
import { withModel } from "../common/open";
import { elementProperties, type ElementProperties, type PropertyValue } from "../common/properties";
import type { Params } from "./manifest";

/** One RFC 4180 field: quoted when it holds a comma, quote, line break or edge spaces. */
export function csvField(value: PropertyValue | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const COLUMNS = ["GlobalId", "ExpressId", "Type", "Name", "PropertySet", "SetKind", "Source", "Property", "Value"];

/** The CSV table: one row per property; an element without any gets one row with empty property columns. */
export function toCsv(elements: ElementProperties[]): string {
  const rows = [COLUMNS.join(",")];
  for (const e of elements) {
    const head = [e.globalId, e.expressId, e.type, e.name];
    let any = false;
    for (const set of e.propertySets) {
      for (const p of set.properties) {
        any = true;
        rows.push([...head, set.name, set.kind, set.source, p.name, p.value].map(csvField).join(","));
      }
    }
    if (!any) rows.push([...head, null, null, null, null, null].map(csvField).join(","));
  }
  return `${rows.join("\r\n")}\r\n`;
}

export const run: ToolRun<Params> = async ([input], { format, includeTypeProperties }, ctx) => {
  ctx.onProgress(0.05, "reading IFC");
  const { schema, elements } = await withModel(input, {}, (model) => ({ schema: model.schema, elements: elementProperties(model) }));
  const chosen = includeTypeProperties ? elements : elements.map((e) => ({ ...e, propertySets: e.propertySets.filter((s) => s.source === "element") }));
  const base = `${stem(input.name)}-properties`;
  if (format === "csv") return [output(`${base}.csv`, "csv", new TextEncoder().encode(toCsv(chosen)))];
  return [output(`${base}.json`, "json", jsonBytes({ schema, elementCount: chosen.length, elements: chosen }))];
};
