/**
 * fast-check arbitraries for the JSON Schemas the served OpenAPI document holds (the subset
 * TypeBox and our route helpers write: const, enum, anyOf/oneOf, string formats and patterns,
 * integer and number ranges, arrays, objects with required and optional properties). Strings a
 * server would fetch (URLs) are loopback addresses only, so no generated value can make the
 * service under test send traffic off this machine.
 */
import fc from "fast-check";

export type JsonSchema = {
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  type?: string | string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** URLs a generated body may carry: loopback or not fetchable at all (the address guard refuses each before connecting). */
export const LOOPBACK_URLS = ["http://127.0.0.1:9/a.pdf", "https://127.0.0.1:9/x", "http://[::1]:9/", "http://[::ffff:127.0.0.1]:9/", "http://127.1:9/", "ftp://127.0.0.1/a", "file:///etc/passwd", "javascript:alert(1)", "http://", "not a url"];

/** Property names whose string values the service fetches from or posts to. */
const isUrlField = (name: string) => /url$/i.test(name);

const MAX_DEPTH = 4;

/**
 * Values a random string would almost never hit, mixed into the strings of fields with these
 * names so that generated requests also get past the lookups: the caller's own ids, real tool
 * slugs, whole valid graphs.
 */
export type Hints = Partial<Record<"ids" | "types" | "graphJson" | "paramsJson", string[]>>;
let hints: Hints = {};
export function setHints(h: Hints): void {
  hints = h;
}
const hintFor = (name: string): string[] | undefined =>
  /ids?$/i.test(name) ? hints.ids : /^(type|jobType|slug)$/.test(name) ? hints.types : name === "graphJson" ? hints.graphJson : name === "paramsJson" ? hints.paramsJson : undefined;

export function arbitraryOf(schema: JsonSchema | undefined, name = "", depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 1 });
  const hinted = hintFor(name);
  if (hinted?.length && (schema.type === "string" || schema.type === undefined)) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: arbitraryOf({ ...schema }, `${name}#`, depth) });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return fc.oneof(...union.map((s) => arbitraryOf(s, name, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, name, depth)));
  switch (type[0]) {
    case "string":
      return stringOf(schema, name);
    case "integer":
      return fc.integer({ min: bound(schema.minimum ?? schema.exclusiveMinimum, -1000, 1), max: bound(schema.maximum ?? schema.exclusiveMaximum, 1_000_000, -1) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const min = schema.minItems ?? 0;
      return fc.array(arbitraryOf(schema.items, name, depth + 1), { minLength: min, maxLength: Math.min(schema.maxItems ?? min + 4, min + 4) });
    }
    case "object":
      return objectOf(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An inclusive integer bound from a schema's (possibly exclusive) one. */
function bound(value: number | undefined, fallback: number, step: number): number {
  if (value === undefined) return fallback;
  return Number.isInteger(value) ? value : Math.ceil(value) + (step > 0 ? 0 : -1);
}

function stringOf(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  if (isUrlField(name) || schema.format === "uri") return fc.constantFrom(...LOOPBACK_URLS);
  if (schema.format === "date-time") return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === "email") return fc.emailAddress();
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 10_000));
    } catch {
      // a pattern JavaScript cannot read: any string of the right length below
    }
  }
  const min = schema.minLength ?? 0;
  return fc.string({ minLength: min, maxLength: Math.min(schema.maxLength ?? min + 30, min + 30), unit: "grapheme" });
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  if (Object.keys(props).length === 0) return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, arbitraryOf(s, k, depth + 1)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) }) as fc.Arbitrary<Record<string, unknown>>;
}
