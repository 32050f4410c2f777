/**
 * Param validation against a manifest's TypeBox schema: defaults first, then a strict check.
 * The server calls `validateParams` to answer 400 before any work starts; `execute` calls it
 * again so a worker never runs a tool with params it did not check itself.
 */
import { Value } from "@sinclair/typebox/value";
import type { TObject, TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { getTool } from "../registry";

/** One bad field: its JSON pointer (`/level`, or `/` for the object itself) and why. */
export interface ParamIssue {
  path: string;
  message: string;
}

/** The outcome of a check: the params with defaults applied, or the list of problems. */
export type ParamsResult = { ok: true; params: Record<string, unknown> } | { ok: false; message: string; issues: ParamIssue[] };

/** Applies defaults to a copy of `params` and checks it against `schema`. */
export function checkParams(schema: TObject, params: unknown): ParamsResult {
  if (params !== undefined && (params === null || typeof params !== "object" || Array.isArray(params))) {
    const issues = [{ path: "/", message: "params must be an object" }];
    return { ok: false, message: "Invalid params: params must be an object", issues };
  }
  const value = Value.Default(schema, Value.Clone(params ?? {}));
  if (Value.Check(schema, value)) return { ok: true, params: value as Record<string, unknown> };
  const issues: ParamIssue[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const path = error.path || "/";
    if (seen.has(path)) continue; // unions report one error per branch; the first reads best
    seen.add(path);
    issues.push({ path, message: describe(error) });
  }
  const fields = issues.map((i) => `${i.path === "/" ? "params" : i.path.slice(1)}: ${i.message}`);
  return { ok: false, message: `Invalid params: ${fields.join("; ")}`, issues };
}

/** TypeBox's message, made readable for unions of literals and patterns (which would print a regex). */
function describe(error: ValueError): string {
  const schema = error.schema as TSchema & { anyOf?: { const?: unknown }[]; examples?: unknown[] };
  const got = JSON.stringify(error.value) ?? "undefined";
  if (error.type === ValueErrorType.Union && schema.anyOf?.every((s) => "const" in s)) {
    return `Expected one of ${schema.anyOf.map((s) => JSON.stringify(s.const)).join(", ")} (got ${got})`;
  }
  if (error.type === ValueErrorType.StringPattern) {
    const like = schema.examples?.length ? ` such as ${schema.examples.map((e: unknown) => JSON.stringify(e)).join(" or ")}` : "";
    return `Expected a value${like} (got ${got})`;
  }
  return error.message;
}

/** Validates `params` for the tool `slug` (unknown slug is an issue on `/`). */
export function validateParams(slug: string, params: unknown): ParamsResult {
  const entry = getTool(slug);
  if (!entry) {
    return { ok: false, message: `Unknown tool "${slug}"`, issues: [{ path: "/", message: `Unknown tool "${slug}"` }] };
  }
  return checkParams(entry.manifest.params, params);
}
