/**
 * What /api/mcp checks before the SDK's transport sees a request: the Host and Origin headers
 * (DNS-rebinding protection, the SDK's hostHeaderValidation done on web-standard Requests), and
 * the JSON-RPC body (one message, version 2.0), so that every refusal is a JSON-RPC error whose
 * `data.code` is a contract code.
 */
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "@vektor/shared/json";
import { type ErrorCode, ServiceError } from "@vektor/shared/errors";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Env } from "../env";
import { JSON_BODY_LIMIT, readCappedBytes } from "../http/core";
import { Answered } from "../http/errors";

/** The JSON-RPC error codes used here (the SDK's own numbers for the same cases). */
export const RPC = { parseError: -32700, invalidRequest: -32600, serverError: -32000 } as const;

type RpcId = string | number | null;

/** A JSON-RPC error answered directly (the transport never runs), with the contract code in `data`. */
export function rpcError(status: number, rpcCode: number, message: string, code: ErrorCode | null, id: RpcId = null, headers: Record<string, string> = {}): Response {
  const body = { jsonrpc: "2.0", id, error: { code: rpcCode, message, ...(code ? { data: { code } } : {}) } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * Host names a request may name: PUBLIC_URL's, HOST's when it is a real address, and the loopback
 * names (a rebinding page cannot make a browser send `Host: localhost`, so they are always safe).
 */
export function allowedHostnames(env: Pick<Env, "host" | "publicUrl">): Set<string> {
  const names = new Set(["localhost", "127.0.0.1", "[::1]", new URL(env.publicUrl).hostname]);
  if (!WILDCARD_HOSTS.has(env.host)) names.add(env.host.includes(":") ? `[${env.host}]` : env.host.toLowerCase());
  return names;
}

function hostnameOf(value: string, prefix: string): string | null {
  try {
    return new URL(`${prefix}${value}`).hostname;
  } catch {
    return null;
  }
}

/** 403 with a JSON-RPC error (as the SDK's middleware answers) when Host or Origin names another site. */
export function checkHostAndOrigin(request: Request, allowed: Set<string>): Response | null {
  const host = request.headers.get("host");
  const hostname = host ? hostnameOf(host, "http://") : null;
  if (!hostname || !allowed.has(hostname)) return rpcError(403, RPC.serverError, `Invalid Host header: ${host ?? "(none)"}`, "FORBIDDEN");
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const originHost = hostnameOf(origin, "");
    if (!originHost || !allowed.has(originHost)) return rpcError(403, RPC.serverError, `Invalid Origin header: ${origin}`, "FORBIDDEN");
  }
  return null;
}

/** A refused body: the JSON-RPC error to answer instead of running anything. */
const refused = (response: Response) => new Answered(response);

function idOf(raw: unknown): RpcId {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * The one JSON-RPC 2.0 message of a POST, read under the JSON body cap. Batches are refused: the
 * MCP revision the SDK speaks (2025-06-18 on) removed them, and one message per request keeps
 * one caller's refusal from mixing with another message's effects.
 */
export async function readMessage(request: Request): Promise<unknown> {
  let text: string;
  try {
    text = new TextDecoder().decode(await readCappedBytes(request, JSON_BODY_LIMIT, "MCP messages"));
  } catch (e) {
    if (e instanceof ServiceError) throw refused(rpcError(e.status, RPC.invalidRequest, e.message, e.code));
    throw e;
  }
  if (jsonDepthExceeds(text)) throw refused(rpcError(400, RPC.parseError, `Parse error: messages may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`, "VALIDATION_ERROR"));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw refused(rpcError(400, RPC.parseError, "Parse error: the body is not JSON", "VALIDATION_ERROR"));
  }
  if (Array.isArray(raw)) throw refused(rpcError(400, RPC.invalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per request", "VALIDATION_ERROR"));
  if (typeof raw !== "object" || raw === null || (raw as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
    throw refused(rpcError(400, RPC.invalidRequest, 'Invalid Request: jsonrpc must be "2.0"', "VALIDATION_ERROR", idOf(raw)));
  }
  if (!JSONRPCMessageSchema.safeParse(raw).success) {
    throw refused(rpcError(400, RPC.invalidRequest, "Invalid Request: not a JSON-RPC 2.0 request, notification or response", "VALIDATION_ERROR", idOf(raw)));
  }
  return raw;
}
