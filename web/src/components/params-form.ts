/**
 * The model behind the params form (components/ParamsForm.tsx): a tool's params schema (the
 * TypeBox object in its manifest, received as plain JSON schema) turned into a list of fields.
 * Numbers, strings, booleans and enums (unions of literals) get their own controls with the
 * schema's limits and default; anything else (arrays, nested objects) is a JSON text box.
 * Optional params left empty are omitted, so the tool's own defaults apply.
 */
import { formatInfo } from "@vektor/shared/formats";

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

export type FieldKind = "choice" | "boolean" | "number" | "integer" | "string" | "json";

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  optional: boolean;
  schema: JsonSchema;
  /** For `choice`: the literal values, shown by their string form. */
  choices?: unknown[];
}

/** What a control holds: the text of an input, the index of a choice ("" = not set), or a box's state. */
export type FieldValue = string | boolean;

export type ReadResult = { ok: true; params: Record<string, unknown> } | { ok: false; message: string };

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

/** How a choice is shown: a format id by its human name (`shapefile-zip` -> `Shapefile (ZIP)`), anything else as it is. */
export function choiceLabel(choice: unknown): string {
  return (typeof choice === "string" && formatInfo(choice)?.title) || String(choice);
}

/** The literal choices of an enum-like schema, or undefined. */
function choicesOf(schema: JsonSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.anyOf?.length && schema.anyOf.every((s) => "const" in s)) return schema.anyOf.map((s) => s.const);
  return undefined;
}

function kindOf(schema: JsonSchema, choices: unknown[] | undefined): FieldKind {
  if (choices) return "choice";
  if (schema.type === "boolean" || schema.type === "number" || schema.type === "integer" || schema.type === "string") return schema.type;
  return "json";
}

/** The fields of a params schema, in the schema's order. */
export function fieldsOf(schema: JsonSchema): FieldSpec[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, prop]) => {
    const choices = choicesOf(prop);
    return { key, label: prop.title ?? humanize(key), kind: kindOf(prop, choices), optional: !required.has(key), schema: prop, choices };
  });
}

/** The control's starting value: the schema's default. */
export function initialValue(field: FieldSpec): FieldValue {
  const def = field.schema.default;
  switch (field.kind) {
    case "choice": {
      const index = field.choices!.indexOf(def);
      return index >= 0 ? String(index) : field.optional ? "" : "0";
    }
    case "boolean":
      return def === true;
    case "json":
      return def === undefined ? "" : JSON.stringify(def);
    default:
      return def === undefined ? "" : String(def);
  }
}

/** The control's value for a param already set (a saved step's params); the default when unset. */
export function fieldValue(field: FieldSpec, value: unknown): FieldValue {
  if (value === undefined) return initialValue(field);
  switch (field.kind) {
    case "choice": {
      const index = field.choices!.findIndex((c) => c === value || JSON.stringify(c) === JSON.stringify(value));
      return index >= 0 ? String(index) : initialValue(field);
    }
    case "boolean":
      return value === true;
    case "json":
      return JSON.stringify(value);
    default:
      return typeof value === "object" ? JSON.stringify(value) : String(value);
  }
}

type FieldRead = { ok: true; value?: unknown } | { ok: false; message: string };

function readField(field: FieldSpec, raw: FieldValue): FieldRead {
  if (field.kind === "boolean") return { ok: true, value: raw === true };
  const text = String(raw);
  if (field.kind === "choice") return text === "" ? { ok: true } : { ok: true, value: field.choices![Number(text)] };
  if (text.trim() === "") return field.optional ? { ok: true } : { ok: false, message: `${field.label} is required` };
  if (field.kind === "string") return { ok: true, value: text };
  if (field.kind === "json") {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false, message: `${field.label} is not valid JSON` };
    }
  }
  const value = Number(text);
  if (!Number.isFinite(value) || (field.kind === "integer" && !Number.isInteger(value))) return { ok: false, message: `${field.label} must be ${field.kind === "integer" ? "a whole number" : "a number"}` };
  return { ok: true, value };
}

/** The params the controls hold, or the first problem found. */
export function readParams(fields: FieldSpec[], values: Record<string, FieldValue>): ReadResult {
  const params: Record<string, unknown> = {};
  for (const field of fields) {
    const result = readField(field, values[field.key] ?? initialValue(field));
    if (!result.ok) return result;
    if (result.value !== undefined) params[field.key] = result.value;
  }
  return { ok: true, params };
}
