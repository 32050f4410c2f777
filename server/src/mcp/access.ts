/**
 * Who may call each MCP tool: the one table that tools/list's filtering, each call's check, the
 * OpenAPI description of /api/mcp, the server's instructions and the README's table come from.
 */
import { MCP_ACCESS_LEVELS, type McpAccess } from "@vektor/shared/schemas/vocab";

export const MCP_ACCESS = {
  list_tools: "anonymous",
  ping: "anonymous",
  list_batches: "token",
  list_workflows: "token",
  create_batch: "write",
  run_workflow: "write",
} as const satisfies Record<string, McpAccess>;
export type McpToolName = keyof typeof MCP_ACCESS;

/** What each level lets through, as the documentation says it. */
const WHO: Record<McpAccess, string> = {
  anonymous: "anyone (no token)",
  token: "any live API token",
  write: "a token with the `mcp:write` scope; charged like POST /api/batch and POST /api/workflows/{id}/run",
};

/** The tools of one access level, in the table's order. */
export function toolsOf(level: McpAccess): McpToolName[] {
  return (Object.keys(MCP_ACCESS) as McpToolName[]).filter((name) => MCP_ACCESS[name] === level);
}

/** `a`, `a and b`, `a, b and c`: tool names in prose. */
export function namesInProse(level: McpAccess): string {
  const names = toolsOf(level);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The markdown table of who may call which tool (the /api/mcp description; the README holds the same). */
export function accessTable(): string {
  return ["| tool | who may call it |", "|---|---|", ...MCP_ACCESS_LEVELS.map((level) => `| ${toolsOf(level).join(", ")} | ${WHO[level]} |`)].join("\n");
}
