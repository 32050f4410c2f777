/**
 * A form generated from a tool's params schema (the TypeBox object in its manifest, received as
 * plain JSON schema): numbers, strings, booleans and enums (unions of literals) get their own
 * controls with the schema's limits and default; anything else (arrays, nested objects) is a JSON
 * text box. Optional params left empty are omitted, so the tool's own defaults apply.
 */
import { h } from "./dom";

/** The part of JSON schema the manifests use. */
export interface JsonSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

export type ReadResult = { ok: true; params: Record<string, unknown> } | { ok: false; message: string };

export interface ParamsForm {
  /** The fieldset to insert (empty when the tool takes no params). */
  element: HTMLFieldSetElement;
  /** Current values as params, or the first problem found. */
  read(): ReadResult;
}

interface Field {
  key: string;
  read(): { ok: true; value?: unknown } | { ok: false; message: string };
}

/** Words shown in capitals in labels. */
const ACRONYMS = new Set(["dpi", "csv", "crs", "epsg", "svg", "url", "id", "rgb"]);

/** The label of a param without a `title`: `linearDeflection` -> `Linear deflection`, `dpi` -> `DPI`. */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()))
    .join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The literal choices of an enum-like schema, or undefined. */
function choicesOf(schema: JsonSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.anyOf?.length && schema.anyOf.every((s) => "const" in s)) return schema.anyOf.map((s) => s.const);
  return undefined;
}

let formCount = 0;

export function paramsForm(schema: JsonSchema): ParamsForm {
  const prefix = `param-${++formCount}`;
  const required = new Set(schema.required ?? []);
  const fields: Field[] = [];
  const rows: HTMLElement[] = [];

  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const id = `${prefix}-${key}`;
    const label = prop.title ?? humanize(key);
    const optional = !required.has(key);
    const hintId = prop.description ? `${id}-hint` : undefined;
    const hint = prop.description ? h("small", { id: hintId, class: "hint" }, prop.description) : null;
    const choices = choicesOf(prop);

    if (choices) {
      const select = h("select", { id, name: key, "aria-describedby": hintId });
      if (optional && prop.default === undefined) select.append(h("option", { value: "" }, "(not set)"));
      choices.forEach((choice, i) => select.append(h("option", { value: String(i), selected: choice === prop.default }, String(choice))));
      rows.push(h("div", { class: "field" }, h("label", { for: id }, label), select, hint));
      fields.push({ key, read: () => (select.value === "" ? { ok: true } : { ok: true, value: choices[Number(select.value)] }) });
    } else if (prop.type === "boolean") {
      const box = h("input", { id, name: key, type: "checkbox", checked: prop.default === true, "aria-describedby": hintId });
      rows.push(h("div", { class: "field field-check" }, box, h("label", { for: id }, label), hint));
      fields.push({ key, read: () => ({ ok: true, value: box.checked }) });
    } else if (prop.type === "integer" || prop.type === "number") {
      const min = prop.minimum ?? prop.exclusiveMinimum;
      const max = prop.maximum ?? prop.exclusiveMaximum;
      const input = h("input", {
        id,
        name: key,
        type: "number",
        inputmode: prop.type === "integer" ? "numeric" : "decimal",
        min,
        max,
        step: prop.type === "integer" ? 1 : "any",
        value: typeof prop.default === "number" ? prop.default : undefined,
        required: !optional,
        "aria-describedby": hintId,
      });
      rows.push(h("div", { class: "field" }, h("label", { for: id }, label), input, hint));
      fields.push({
        key,
        read: () => {
          if (input.value.trim() === "") return optional ? { ok: true } : { ok: false, message: `${label} is required` };
          const value = Number(input.value);
          if (!Number.isFinite(value) || (prop.type === "integer" && !Number.isInteger(value))) return { ok: false, message: `${label} must be ${prop.type === "integer" ? "a whole number" : "a number"}` };
          return { ok: true, value };
        },
      });
    } else if (prop.type === "string") {
      const input = h("input", {
        id,
        name: key,
        type: "text",
        value: typeof prop.default === "string" ? prop.default : undefined,
        minlength: prop.minLength,
        maxlength: prop.maxLength,
        pattern: prop.pattern,
        required: !optional,
        "aria-describedby": hintId,
      });
      rows.push(h("div", { class: "field" }, h("label", { for: id }, label), input, hint));
      fields.push({ key, read: () => (input.value === "" && optional ? { ok: true } : { ok: true, value: input.value }) });
    } else {
      const area = h("textarea", { id, name: key, rows: 3, spellcheck: "false", "aria-describedby": hintId });
      area.value = prop.default === undefined ? "" : JSON.stringify(prop.default);
      rows.push(h("div", { class: "field" }, h("label", { for: id }, `${label} (JSON)`), area, hint));
      fields.push({
        key,
        read: () => {
          if (area.value.trim() === "") return optional ? { ok: true } : { ok: false, message: `${label} is required` };
          try {
            return { ok: true, value: JSON.parse(area.value) };
          } catch {
            return { ok: false, message: `${label} is not valid JSON` };
          }
        },
      });
    }
  }

  const element = h("fieldset", { class: "params" }, h("legend", {}, "Options"));
  if (rows.length) element.append(...rows);
  else element.append(h("p", { class: "hint" }, "This tool has no options."));

  return {
    element,
    read() {
      const params: Record<string, unknown> = {};
      for (const field of fields) {
        const result = field.read();
        if (!result.ok) return result;
        if (result.value !== undefined) params[field.key] = result.value;
      }
      return { ok: true, params };
    },
  };
}
