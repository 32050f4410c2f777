/**
 * Reading JSON a caller sent: a request body, or a string field holding JSON (a workflow's
 * graphJson and paramsJson). JSON.parse itself copes with deep nesting, but whatever walks the
 * value afterwards recursively (a validator building its message, JSON.stringify, structured
 * clone) runs out of stack on `[[[[…]]]]`; so nesting is capped before anything parses it.
 */
import { ServiceError } from "./errors";

/** Deepest nesting of arrays and objects accepted anywhere a caller sends JSON. */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `max` arrays or objects inside one another (strings skipped). One pass, no parse. */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** `tooDeep`: refused before parsing, which a server answers 400 whatever else it would say of bad JSON. */
export type JsonRead = { ok: true; value: unknown } | { ok: false; tooDeep: boolean; message: string };

/** The server's refusal of nesting past MAX_JSON_DEPTH, said of `what` ("JSON bodies", "graphJson"). */
export const tooDeepMessage = (what: string) => `${what} may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`;

/** `text` parsed, or why not, said of `what` ("The pasted text", "graphJson"). */
export function readJson(text: string, what: string): JsonRead {
  if (jsonDepthExceeds(text)) return { ok: false, tooDeep: true, message: `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; flatten it` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, tooDeep: false, message: `${what} is not valid JSON: ${(e as Error).message}` };
  }
}

/** A JSON request body's value; malformed, nested too deep or holding text no database stores: VALIDATION_ERROR (400) saying which. */
export function parseJsonBody(text: string): unknown {
  if (jsonDepthExceeds(text)) throw new ServiceError("VALIDATION_ERROR", tooDeepMessage("JSON bodies"));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "Malformed JSON body");
  }
  requireStorableText(text, value, "The JSON body");
  return value;
}

/** Escapes that can put a NUL or half a surrogate pair into a parsed string (a raw one is not valid JSON, or decodes to U+FFFD). */
const SUSPECT_ESCAPE = /\\u(0000|d[89a-f])/i;

/**
 * Refuses (VALIDATION_ERROR) a parsed value with a string or key that PostgreSQL cannot store in
 * text or jsonb: U+0000, or a lone UTF-16 surrogate (not Unicode at all). Only values whose
 * `text` has such an escape are walked, so ordinary bodies cost one regex test.
 */
export function requireStorableText(text: string, value: unknown, what: string): void {
  if (!SUSPECT_ESCAPE.test(text)) return;
  const bad = (s: string) => s.includes("\0") || !s.isWellFormed();
  const walk = (v: unknown): boolean => {
    if (typeof v === "string") return bad(v);
    if (v === null || typeof v !== "object") return false;
    if (Array.isArray(v)) return v.some(walk);
    return Object.entries(v).some(([k, x]) => bad(k) || walk(x));
  };
  if (walk(value)) throw new ServiceError("VALIDATION_ERROR", `${what} holds text with a NUL character (U+0000) or a lone surrogate (\\ud800-\\udfff), which cannot be stored; remove it`);
}
