/** Reading a caller's JSON: nesting capped before parsing, and text no database stores refused. */
import { describe, expect, test } from "bun:test";
import { ServiceError } from "./errors";
import { jsonDepthExceeds, MAX_JSON_DEPTH, parseJsonBody, requireStorableText } from "./json";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("jsonDepthExceeds", () => {
  test("counts arrays and objects inside one another, up to the limit and one past it", () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(jsonDepthExceeds("[[],[],[],[]]", 2)).toBe(false);
  });

  test("brackets inside strings, escaped quotes included, do not count", () => {
    expect(jsonDepthExceeds(`["${"[".repeat(1000)}"]`)).toBe(false);
    expect(jsonDepthExceeds(`["\\"${"{".repeat(1000)}\\\\"]`)).toBe(false);
  });

  test("a 1 MiB body of nesting is refused in one pass", () => {
    expect(jsonDepthExceeds(nested(512 * 1024))).toBe(true);
  });
});

describe("parseJsonBody", () => {
  const refusal = (text: string) => {
    try {
      parseJsonBody(text);
    } catch (e) {
      return e instanceof ServiceError ? `${e.code}: ${e.message}` : `not a ServiceError: ${e}`;
    }
    return "accepted";
  };

  test("deep nesting is a VALIDATION_ERROR naming the limit, not a stack overflow", () => {
    expect(refusal(nested(10_000))).toBe(`VALIDATION_ERROR: JSON bodies may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`);
  });

  test("NUL and lone surrogates in strings or keys are refused; paired surrogates and escaped backslashes are not", () => {
    expect(refusal('{"a":"x\\u0000y"}')).toStartWith("VALIDATION_ERROR: The JSON body holds text with a NUL");
    expect(refusal('{"\\u0000":1}')).toStartWith("VALIDATION_ERROR");
    expect(refusal('["\\ud800"]')).toStartWith("VALIDATION_ERROR");
    expect(refusal('["\\udfff\\ud800"]')).toStartWith("VALIDATION_ERROR");
    expect(refusal('["\\ud83d\\ude00"]')).toBe("accepted");
    expect(refusal('["\\\\u0000"]')).toBe("accepted");
    expect(refusal("{")).toBe("VALIDATION_ERROR: Malformed JSON body");
  });

  test("1e309 and -0 parse as JSON numbers (Infinity and -0); the schemas decide", () => {
    expect(parseJsonBody('{"a":1e309}')).toEqual({ a: Infinity });
    expect(Object.is((parseJsonBody('{"a":-0}') as { a: number }).a, -0)).toBe(true);
  });

  test("a __proto__ key is an own property of the parsed value, never the prototype", () => {
    const v = parseJsonBody('{"__proto__":{"role":"admin"}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});

describe("requireStorableText", () => {
  test("names what it read", () => {
    expect(() => requireStorableText('{"a":"\\u0000"}', { a: "\0" }, "paramsJson")).toThrow("paramsJson holds text with a NUL");
  });
});
