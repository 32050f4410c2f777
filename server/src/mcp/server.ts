/**
 * buildServer(services, caller): one MCP server for one request (stateless streamable HTTP).
 * It sees only what its caller may: tools/list shows the tools the caller may call, tools/call
 * runs them through the services the HTTP routes use.
 *
 * It is the SDK's low-level `Server`, not `McpServer`: our schemas are TypeBox values, which are
 * JSON Schema already and are the very ones the HTTP routes validate with; McpServer wants zod
 * copies of them, and hides a tool a caller may not call instead of refusing it with a code.
 */
import { ServiceError } from "@vektor/shared/errors";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Caller } from "../auth/caller";
import { namesInProse } from "./access";
import { MCP_TOOLS, MCP_TOOLS_BY_NAME, type McpServices, type McpTool, refusalFor } from "./tools";

const INSTRUCTIONS =
  `Vektor converts engineering files (CAD, GIS, point cloud, PCB, BIM, PDF). Anonymous callers get ${namesInProse("anonymous")}. ` +
  `With \`Authorization: Bearer vk_...\` (an API token) ${namesInProse("token")}; with a token that has the mcp:write scope also ${namesInProse("write")}, which charge credits. ` +
  "Files are uploaded through the HTTP API first. A refused call answers isError with { ok: false, error: { code, message } } and creates nothing.";

/** One for every server: the SDK would otherwise build an Ajv instance per request. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

function describe(t: McpTool) {
  return { name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations };
}

/**
 * A refused call: isError with the HTTP API's error envelope as JSON text. Not structuredContent:
 * clients check that against the tool's output schema, which describes a success.
 */
function refusal(code: ServiceError["code"], message: string): CallToolResult {
  const body = { ok: false, error: { code, message } };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

async function callTool(s: McpServices, caller: Caller | null, requestId: string, name: string, args: unknown): Promise<CallToolResult> {
  const tool = MCP_TOOLS_BY_NAME.get(name);
  // A protocol error, as the MCP spec has it for an unknown tool; the data carries the contract code.
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { code: "NOT_FOUND" });
  try {
    const out = await tool.call(s, caller, args ?? {});
    return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
  } catch (e) {
    if (e instanceof ServiceError) return refusal(e.code, e.message);
    s.log.error({ requestId, err: e, tool: name }, "MCP tool failed");
    return refusal("INTERNAL", `Internal error (request ${requestId})`);
  }
}

/** A fresh server for one request by `caller` (null: anonymous). */
export function buildServer(s: McpServices, caller: Caller | null, opts: { requestId?: string } = {}): Server {
  const requestId = opts.requestId ?? "unknown";
  const server = new Server({ name: "vektor", title: "Vektor", version: s.env.version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator });
  const visible = MCP_TOOLS.filter((t) => refusalFor(t.name, t.access, caller) === null).map(describe);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: visible }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(s, caller, requestId, req.params.name, req.params.arguments));
  // Without it the SDK answers -32601 with no data; with it the answer names the contract code too.
  server.fallbackRequestHandler = async (req) => {
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${req.method}`, { code: "NOT_FOUND" });
  };
  return server;
}
