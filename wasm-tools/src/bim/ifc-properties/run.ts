/** bim.ifc-properties: every IfcProduct with its property and quantity sets, as JSON or a flat CSV. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem } from "../../runtime/context";
import { Utf8Blocks } from "../../runtime/utf8-blocks";
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

/** Writes the elements one at a time into `text`; `end` closes the document. */
interface TableWriter {
  element(e: ElementProperties): void;
  end(): void;
}

/** The CSV table: one row per property; an element without any gets one row with empty property columns. */
function csvWriter(text: Utf8Blocks): TableWriter {
  const row = (fields: (PropertyValue | undefined)[]) => text.append(`${fields.map(csvField).join(",")}\r\n`);
  text.append(`${COLUMNS.join(",")}\r\n`);
  return {
    element(e) {
      const head = [e.globalId, e.expressId, e.type, e.name];
      let any = false;
      for (const set of e.propertySets) {
        for (const p of set.properties) {
          any = true;
          row([...head, set.name, set.kind, set.source, p.name, p.value]);
        }
      }
      if (!any) row([...head, null, null, null, null, null]);
    },
    end() {},
  };
}

/** `{ schema, elementCount, elements }` as jsonBytes prints it (2-space indents), an element at a time. */
function jsonWriter(text: Utf8Blocks, schema: string, count: number): TableWriter {
  text.append(`{\n  "schema": ${JSON.stringify(schema)},\n  "elementCount": ${count},\n  "elements": [`);
  let written = 0;
  return {
    element(e) {
      // An element sits two levels deep: each of its lines indented by four more spaces.
      text.append(`${written++ ? "," : ""}\n    ${JSON.stringify(e, null, 2).replace(/\n/g, "\n    ")}`);
    },
    end() {
      text.append(written ? "\n  ]\n}\n" : "]\n}\n");
    },
  };
}

export const run: ToolRun<Params> = async ([input], { format, includeTypeProperties }, ctx) => {
  ctx.onProgress(0.05, "reading IFC");
  const text = new Utf8Blocks();
  await withModel(input, {}, (model) => {
    const { count, elements } = elementProperties(model);
    const writer = format === "csv" ? csvWriter(text) : jsonWriter(text, model.schema, count);
    for (const e of elements) writer.element(includeTypeProperties ? e : { ...e, propertySets: e.propertySets.filter((s) => s.source === "element") });
    writer.end();
  });
  return [output(`${stem(input.name)}-properties.${format}`, format, text.bytes())];
};
