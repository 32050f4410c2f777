/**
 * POST /api/mcp: the Model Context Protocol over streamable HTTP, stateless. Each POST gets a
 * fresh server (buildServer) and transport, so nothing of one caller outlives its request and
 * any process behind a load balancer can answer. GET and DELETE answer 405, as the SDK's
 * stateless example does: there is no session to stream to or end.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type TSchema, Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import { ServiceError } from "@vektor/shared/errors";
import type { Caller } from "../auth/caller";
import { JSON_BODY_LIMIT, requestIdOf } from "../http/core";
import { authMacro, securityOf } from "../http/docs";
import { Answered } from "../http/errors";
import type { Services } from "../services";
import { accessTable, namesInProse } from "./access";
import { allowedHostnames, checkHostAndOrigin, readMessage, RPC, rpcError } from "./http";
import { buildServer } from "./server";
import type { McpServices } from "./tools";

export { buildServer } from "./server";

const unauthorized = () =>
  rpcError(401, RPC.serverError, "Unauthorized", "UNAUTHORIZED", null, { "www-authenticate": 'Bearer error="invalid_token", error_description="The API token is unknown, expired or revoked"' });

/** The auth macro's refusals in JSON-RPC: a header that is no live token 401, anything unexpected 500. */
const refusal = (s: Pick<Services, "log">) => (err: unknown, request: Request) => (err instanceof ServiceError ? unauthorized() : internalError(s, request, err));

/** Host and Origin are checked first (403), before the caller (the macro's 401). */
const hostCheck = (allowed: Set<string>) => ({ request }: { request: Request }) => {
  const badHost = checkHostAndOrigin(request, allowed);
  if (badHost) throw new Answered(badHost);
};

async function handlePost(s: McpServices, caller: Caller | null, request: Request): Promise<Response> {
  let message: unknown;
  try {
    message = await readMessage(request);
  } catch (e) {
    if (e instanceof Answered) return e.response;
    throw e;
  }
  const server = buildServer(s, caller, { requestId: requestIdOf(request) });
  // JSON answers rather than an SSE stream: every tool answers at once, so the request ends with
  // its answer and the per-request server can be closed right after.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: JSON_BODY_LIMIT });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}

/** Anything unexpected still answers in JSON-RPC (the request id in the message, the stack in the log only). */
function internalError(s: Pick<Services, "log">, request: Request, err: unknown): Response {
  const requestId = requestIdOf(request);
  s.log.error({ requestId, err }, "MCP request failed");
  return rpcError(500, -32603, `Internal error (request ${requestId})`, "INTERNAL");
}

function methodNotAllowed(allowed: Set<string>, request: Request): Response {
  const badHost = checkHostAndOrigin(request, allowed);
  if (badHost) return badHost;
  // The SDK's stateless example answers exactly this (no contract code: it is no caller's mistake to ask).
  return rpcError(405, RPC.serverError, "Method not allowed.", null, null, { allow: "POST" });
}

const RULES = `Streamable HTTP transport of the Model Context Protocol (JSON-RPC 2.0), stateless: no \`Mcp-Session-Id\`; every POST carries one JSON-RPC message (a batch array is refused) and is answered with \`application/json\` (202 and no body for a notification). Send \`Accept: application/json, text/event-stream\` and \`Content-Type: application/json\`.

Methods: \`initialize\`, \`ping\`, \`tools/list\`, \`tools/call\` (and the notifications). Tools, each with an input and an output schema, \`structuredContent\`, a title and readOnly/destructive hints:

${accessTable()}

Anonymous \`tools/list\` shows only ${namesInProse("anonymous")}; with a token it shows what the token may call.

Refusals carry a contract code. Not JSON, a batch, \`jsonrpc\` other than "2.0": HTTP 400 with a JSON-RPC error (-32700 / -32600) whose \`data.code\` is VALIDATION_ERROR. \`Authorization\` that is not a live token (unknown, expired, revoked): HTTP 401 UNAUTHORIZED with \`WWW-Authenticate: Bearer\`. Host or Origin naming another site than PUBLIC_URL, HOST or loopback: 403 (DNS-rebinding protection). Unknown method: -32601, unknown tool: -32602, both with \`data.code\` NOT_FOUND. A tool call without the needed token or scope, with arguments failing the tool's input schema, over the plan's limits or without enough credits: a result with \`isError: true\` whose text is the error envelope \`{ ok: false, error: { code, message } }\` (UNAUTHORIZED, FORBIDDEN, VALIDATION_ERROR, LIMIT_EXCEEDED, INSUFFICIENT_CREDITS, NOT_FOUND, INVALID_STATE, FEATURE_DISABLED); nothing is created or charged.`;

/** A TypeBox schema as the plain JSON Schema object the route's OpenAPI detail takes. */
const json = (schema: TSchema) => JSON.parse(JSON.stringify(schema)) as OpenAPIV3.SchemaObject;

const RpcId = Type.Union([Type.String(), Type.Integer()]);
const rpcErrorSchema = json(
  Type.Object({
    jsonrpc: Type.Literal("2.0"),
    id: Type.Union([RpcId, Type.Null()]),
    error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Object({ code: Type.String({ description: "contract error code" }) })) }),
  }),
);
const rpcRequestSchema = json(
  Type.Object({
    jsonrpc: Type.Literal("2.0"),
    id: Type.Optional(RpcId),
    method: Type.String({ examples: ["initialize", "tools/list", "tools/call", "ping"] }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
);

const rpcAnswer = (description: string) => ({ description, content: { "application/json": { schema: rpcErrorSchema } } });

const postDetail = {
  summary: "MCP endpoint (streamable HTTP, stateless)",
  description: RULES,
  tags: ["MCP"],
  // Empty requirement first: anonymous callers are welcome (list_tools, ping).
  security: securityOf("mcp") as OpenAPIV3.SecurityRequirementObject[],
  requestBody: { required: true, content: { "application/json": { schema: rpcRequestSchema } } },
  responses: {
    200: { description: "The JSON-RPC response (a result, or an error whose data.code is a contract code)", content: { "application/json": { schema: json(Type.Object({ jsonrpc: Type.Literal("2.0"), id: RpcId })) } } },
    202: { description: "A notification or response was accepted (no body)" },
    400: rpcAnswer("Not JSON, a batch, or not JSON-RPC 2.0 (data.code VALIDATION_ERROR)"),
    401: rpcAnswer("Authorization is not a live API token (data.code UNAUTHORIZED)"),
    403: rpcAnswer("Host or Origin names another site (DNS-rebinding protection)"),
    406: rpcAnswer("Accept lacks application/json or text/event-stream"),
    413: rpcAnswer("Body over 1 MiB (data.code PAYLOAD_TOO_LARGE)"),
    415: rpcAnswer("Content-Type is not application/json"),
    429: { description: "Rate limited (error envelope RATE_LIMITED, Retry-After)" },
  },
};

const notAllowedDetail = (summary: string) => ({ summary, tags: ["MCP"], security: [] as OpenAPIV3.SecurityRequirementObject[], responses: { 405: rpcAnswer("Always: the endpoint is stateless (no SSE stream to open, no session to end)") } });

export function mcpModule(s: McpServices & Pick<Services, "callers">) {
  const allowed = allowedHostnames(s.env);
  return new Elysia()
    .use(authMacro(s.callers, refusal(s)))
    .post("/api/mcp", ({ caller, request }) => handlePost(s, caller, request).catch((err: unknown) => internalError(s, request, err)), {
      parse: "none",
      transform: hostCheck(allowed),
      anyCaller: true,
      detail: postDetail,
    })
    .get("/api/mcp", ({ request }) => methodNotAllowed(allowed, request), { detail: notAllowedDetail("MCP: no server-to-client stream (405)") })
    .delete("/api/mcp", ({ request }) => methodNotAllowed(allowed, request), { detail: notAllowedDetail("MCP: no session to end (405)") });
}
