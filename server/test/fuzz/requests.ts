/**
 * What the fuzz sends: for one operation of the served OpenAPI document, requests with bodies
 * valid by its schema or mutated (wrong types, missing and extra fields, huge values, 1e309, -0,
 * lone surrogates, NUL, __proto__ keys, deep nesting, non-UTF-8 bytes, wrong content types),
 * path ids that are another user's, malformed or traversal-shaped, and query values out of range.
 */
import fc from "fast-check";
import { arbitraryOf, type JsonSchema } from "./schema-arbitrary";

export type CallerName = "anonymous" | "user" | "admin" | "token:api" | "token:mcp:write";
export const CALLERS: CallerName[] = ["anonymous", "user", "admin", "token:api", "token:mcp:write"];

export interface Operation {
  method: string;
  path: string;
  params: { in: string; name: string; schema?: JsonSchema }[];
  body?: JsonSchema;
}

export interface FuzzRequest {
  caller: CallerName;
  method: string;
  /** The operation's path template. */
  op: string;
  /** Path and query, already encoded. */
  url: string;
  /** Some path id is another user's: the answer must not be a success. */
  foreign: boolean;
  contentType: string | null;
  body: Uint8Array | null;
  headers: Record<string, string>;
  /** Which variant this is, for a failure's report. */
  label: string;
}

const enc = new TextEncoder();
const utf8 = (s: string) => enc.encode(s);
const concat = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));

export const DEEP = "[".repeat(10_000) + "]".repeat(10_000);
export const PROTO = '{"role":"admin","credits":1000000000,"isAdmin":true,"admin":true,"scopes":["api","mcp:write"],"emailVerified":true}';

/** Percent-encodes every UTF-8 byte that is not unreserved (lone surrogates become U+FFFD, as TextEncoder makes them). */
export function encodeSegment(s: string): string {
  let out = "";
  for (const b of utf8(s)) out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}

/** Path segments given as they are (already URL text): traversal shapes and bytes that are not UTF-8. */
export const RAW_SEGMENTS = ["..%2F..%2Fetc%2Fpasswd", "%2e%2e", "%2E%2E%2F%2E%2E%2F", "..%5C..%5Cwindows", "....%2F%2F", "%00", "%FF%FE", "%C0%AF", "%", "%zz", "%E2%80%AE", "a%2Fb"];

const anyString = fc.oneof(fc.string({ maxLength: 40, unit: "grapheme" }), fc.string({ maxLength: 40, unit: "binary" }));

/** A path parameter: another user's id, a malformed one, or a traversal shape. */
function pathValue(name: string, schema: JsonSchema | undefined, foreignIds: string[], ownIds: string[]): fc.Arbitrary<{ text: string; foreign: boolean }> {
  const plain = (a: fc.Arbitrary<string>) => a.map((s) => ({ text: encodeSegment(s), foreign: false }));
  const options: fc.Arbitrary<{ text: string; foreign: boolean }>[] = [
    plain(fc.constantFrom("x", "0", "-1", "null", "undefined", "1e309", "__proto__", "constructor", "a".repeat(3000), "ü€😀", "\u0000", "\ud800", " ", "f_" + "0".repeat(24))),
    plain(anyString.filter((s) => s.length > 0)),
    fc.constantFrom(...RAW_SEGMENTS).map((text) => ({ text, foreign: false })),
  ];
  if (foreignIds.length && /id$/i.test(name)) options.unshift(fc.constantFrom(...foreignIds).map((id) => ({ text: encodeSegment(id), foreign: true })));
  if (schema && (schema.enum || schema.anyOf || schema.const !== undefined || name === "slug" || name === "partNumber")) options.push(plain(arbitraryOf(schema, name).map(String)));
  const own = ownIds.length && /id$/i.test(name) ? [{ weight: options.length, arbitrary: fc.constantFrom(...ownIds).map((id) => ({ text: encodeSegment(id), foreign: false })) }] : [];
  return fc.oneof(...own, ...options.map((arbitrary) => ({ weight: 1, arbitrary })));
}

export const OUT_OF_RANGE = ["0", "-1", "201", "1.5", "1e309", "-0", "NaN", "abc", "", "99999999999999999999", "%FF", "a".repeat(10_000), "[]", "{}"];

/** A query string for the operation's query parameters: valid, out of range, repeated, or extra. */
function queryOf(op: Operation): fc.Arbitrary<string> {
  const names = op.params.filter((p) => p.in === "query");
  const value = (p: Operation["params"][number]) =>
    fc.oneof(
      arbitraryOf(p.schema, p.name).map((v) => encodeSegment(String(v))),
      fc.constantFrom(...OUT_OF_RANGE).map((v) => (v === "%FF" ? v : encodeSegment(v))),
      anyString.map(encodeSegment),
    );
  const pairs = names.map((p) => fc.option(value(p).map((v) => `${p.name}=${v}`), { nil: undefined }));
  const extra = fc.option(fc.constantFrom("limit=0&limit=5", "__proto__[role]=admin", "cursor=%00", "x=1"), { nil: undefined });
  return fc.tuple(fc.tuple(...pairs), extra).map(([ps, x]) => {
    const all = [...ps, x].filter((s): s is string => !!s);
    return all.length ? `?${all.join("&")}` : "";
  });
}

/** Replaces the first `"key":<value>` of a JSON text's top-level object with raw JSON text (1e309, -0, an escape). */
function withRawField(json: string, key: string, raw: string): string {
  const obj = json.startsWith("{") && json.length > 2 ? json.slice(1, -1) : "";
  return `{${JSON.stringify(key)}:${raw}${obj ? `,${obj}` : ""}}`;
}

type Body = { bytes: Uint8Array | null; label: string };

/** A body: valid by the schema, mutated from a valid one, or one of the raw shapes no serialiser makes. */
function bodyOf(op: Operation): fc.Arbitrary<Body> {
  const schema = op.body ?? { type: "object" };
  const valid = arbitraryOf(schema) as fc.Arbitrary<unknown>;
  const keys = Object.keys(schema.properties ?? {});
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant("x");
  const json = (label: string) => (v: unknown) => ({ bytes: utf8(JSON.stringify(v)), label });
  const asObject = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {});
  const wrong = fc.constantFrom<unknown>(1, -1, 1.5, "x", "", true, null, [], {}, [null], { a: 1 }, 2 ** 53 + 1);
  return fc.oneof(
    { weight: 8, arbitrary: valid.map(json("valid")) },
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => { const o = asObject(v); delete o[k]; return json(`missing ${k}`)(o); }) },
    { weight: 1, arbitrary: fc.tuple(valid, anyString, fc.jsonValue({ maxDepth: 2 })).map(([v, k, x]) => json("extra field")({ ...asObject(v), [k || "extra"]: x })) },
    { weight: 2, arbitrary: fc.tuple(valid, key, wrong).map(([v, k, w]) => json(`wrong type ${k}`)({ ...asObject(v), [k]: w })) },
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => json(`huge string ${k}`)({ ...asObject(v), [k]: "\u00e9".repeat(200_000) })) },
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => json(`huge array ${k}`)({ ...asObject(v), [k]: new Array(50_000).fill("x") })) },
    { weight: 1, arbitrary: fc.tuple(valid, key, fc.constantFrom("1e309", "-1e309", "-0", "-0.0", '"\\ud800"', '"\\udfff\\ud800"', '"a\\u0000b"', '"\\u0000"', "1e-400", "123456789012345678901234567890")).map(([v, k, raw]) => ({ bytes: utf8(withRawField(JSON.stringify(asObject(v)), k, raw)), label: `raw ${k}=${raw}` })) },
    { weight: 1, arbitrary: fc.tuple(valid, fc.constantFrom("__proto__", "constructor", "prototype")).map(([v, k]) => ({ bytes: utf8(withRawField(JSON.stringify(asObject(v)), k, k === "constructor" ? `{"prototype":${PROTO}}` : PROTO)), label: `${k} key` })) },
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => ({ bytes: utf8(withRawField(JSON.stringify(asObject(v)), k, DEEP)), label: `deep ${k}` })) },
    { weight: 1, arbitrary: key.map((k) => ({ bytes: concat(`{"${k}":"`, [0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80], '"}'), label: `non-UTF-8 ${k}` })) },
    { weight: 1, arbitrary: fc.constantFrom(DEEP, "", "null", "[]", "1e309", "-0", '"s"', "{", '{"a":', "{}}", "\u0000", "\ufeff{}").map((text) => ({ bytes: utf8(text), label: `raw body ${text.slice(0, 12)}` })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes, label: "random bytes" })) },
    { weight: 1, arbitrary: fc.constant({ bytes: null, label: "no body" }) },
  );
}

const CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", null, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=latin1", "application/xml", "*/*", "application/json, text/html"];

/** Every request the fuzz may send to `op`. */
export function requestsFor(op: Operation, ids: { foreign: string[]; own: string[] }, callers: CallerName[] = CALLERS): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === "path");
  // The caller's own ids reach the handlers' real work; a DELETE of them would starve the operations after it.
  const own = op.method === "delete" ? [] : ids.own;
  const segments = fc.tuple(...pathParams.map((p) => pathValue(p.name, p.schema, ids.foreign, own)));
  // fetch sends no body with a GET; a DELETE may carry one.
  const body = op.method === "get" ? fc.constant<Body>({ bytes: null, label: "no body" }) : op.body || op.method !== "delete" ? bodyOf(op) : fc.oneof({ weight: 5, arbitrary: fc.constant<Body>({ bytes: null, label: "no body" }) }, { weight: 1, arbitrary: bodyOf(op) });
  const contentType = fc.oneof({ weight: 5, arbitrary: fc.constant<string | null>("application/json") }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) });
  const headers = fc.record(
    {
      "idempotency-key": anyString.map(encodeSegment),
      "x-service-timestamp": fc.oneof(fc.integer().map(String), fc.constantFrom("", "1e309", "-0", "now")),
      "x-service-signature": fc.oneof(fc.constant("sha256="), fc.stringMatching(/^sha256=[0-9a-f]{64}$/), anyString.map(encodeSegment)),
      accept: fc.constantFrom("application/json, text/event-stream", "*/*", "text/html"),
    },
    { requiredKeys: [] },
  );
  // Mostly the callers that own something, so requests get past authentication to the work.
  const caller = fc.oneof(...callers.map((c) => ({ weight: c === "user" ? 4 : c === "token:api" ? 2 : 1, arbitrary: fc.constant(c) })));
  return fc.record({ caller, segments, query: queryOf(op), body, contentType, headers }).map(({ caller, segments, query, body, contentType, headers }) => {
    let path = op.path;
    pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, segments[i].text)));
    return {
      caller,
      method: op.method.toUpperCase(),
      op: op.path,
      url: path + query,
      foreign: segments.some((s) => s.foreign),
      contentType: body.bytes ? contentType : null,
      body: body.bytes,
      headers: headers as Record<string, string>,
      label: body.label,
    };
  });
}
