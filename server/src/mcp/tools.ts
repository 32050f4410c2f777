/**
 * The MCP tools, as data: name, who may call it, input and output schemas (the same TypeBox
 * schemas as the HTTP routes, so an argument the route refuses is refused here too) and hints,
 * plus a run function over the same services the routes call (so credits, limits and checks are
 * the HTTP API's own).
 */
import { type Static, type TObject, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ServiceError } from "@vektor/shared/errors";
import { Batch, CreateBatchBody } from "@vektor/shared/schemas/batch";
import { Page } from "@vektor/shared/schemas/envelope";
import { ToolIndexEntry } from "@vektor/shared/schemas/job";
import { RunBody, Workflow } from "@vektor/shared/schemas/workflow";
import type { McpAccess } from "@vektor/shared/schemas/vocab";
import type { Caller } from "../auth/caller";
import { toolIndex } from "../tools/catalog";
import type { Services } from "../services";

/** What MCP tools run through: the same services as the HTTP routes, no more. */
export type McpServices = Pick<Services, "env" | "log" | "batches" | "workflows">;
import { MCP_ACCESS, type McpToolName } from "./access";


export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool, its types erased: `call` checks access and arguments itself before running. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  access: McpAccess;
  /** Plain JSON Schema (TypeBox's symbols stripped), as tools/list shows it. */
  inputSchema: { type: "object"; [k: string]: unknown };
  outputSchema: { type: "object"; [k: string]: unknown };
  annotations: ToolHints & { title: string };
  call(s: McpServices, caller: Caller | null, args: unknown): Promise<Record<string, unknown>>;
}

type CallerFor<N extends McpToolName> = (typeof MCP_ACCESS)[N] extends "anonymous" ? Caller | null : Caller;

/** A tool; who may call it is its row in MCP_ACCESS. */
interface ToolSpec<N extends McpToolName, I extends TObject, O extends TObject> {
  name: N;
  title: string;
  description: string;
  input: I;
  output: O;
  hints: ToolHints;
  run(s: McpServices, caller: CallerFor<N>, args: Static<I>): Promise<Static<O>>;
}

/** Why `caller` may not call a tool of this access (a ServiceError to answer), or null when it may. */
export function refusalFor(name: string, access: McpAccess, caller: Caller | null): ServiceError | null {
  if (access === "anonymous") return null;
  if (!caller) return new ServiceError("UNAUTHORIZED", `${name} needs an API token (Authorization: Bearer vk_...)`);
  if (access === "write" && !caller.scopes.includes("mcp:write")) return new ServiceError("FORBIDDEN", `${name} needs a token with the mcp:write scope`);
  return null;
}

const plain = (schema: TObject) => JSON.parse(JSON.stringify(schema)) as McpTool["inputSchema"];

function define<N extends McpToolName, I extends TObject, O extends TObject>(spec: ToolSpec<N, I, O>): McpTool {
  const check = TypeCompiler.Compile(spec.input);
  const access: McpAccess = MCP_ACCESS[spec.name];
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access,
    inputSchema: plain(spec.input),
    outputSchema: plain(spec.output),
    annotations: { title: spec.title, ...spec.hints },
    async call(s, caller, args) {
      // Access first, as the HTTP guards run before body validation: an anonymous caller learns nothing about arguments.
      const refused = refusalFor(spec.name, access, caller);
      if (refused) throw refused;
      if (!check.Check(args)) {
        const problems = [...check.Errors(args)].slice(0, 5).map((e) => `${e.path ? `arguments${e.path.replaceAll("/", ".")}` : "arguments"}: ${e.message}`);
        throw new ServiceError("VALIDATION_ERROR", problems.join("; ") || "Invalid arguments");
      }
      // refusalFor let it through, so a token tool has a caller: the one cast that generics cannot narrow.
      return spec.run(s, caller as CallerFor<N>, args);
    },
  };
}

const READ: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Creates and charges, destroys nothing: additive, and a second call creates (and charges) again. */
const CREATE: ToolHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const PageArgs = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: "page size, 1..200 (default 50)" })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "nextCursor of the previous page" })),
  },
  { additionalProperties: false },
);
const NoArgs = Type.Object({}, { additionalProperties: false });

export const MCP_TOOLS: readonly McpTool[] = [
  define({
    name: "list_tools",
    title: "List conversion tools",
    description: "Every tool the service runs (slug, family, title, accepted and produced formats): the same index as GET /api/config/tools-index. A tool's slug is the `type` of create_batch.",
    input: Type.Object({ family: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: "only this family, e.g. pdf" })) }, { additionalProperties: false }),
    output: Type.Object({ tools: Type.Array(ToolIndexEntry) }),
    hints: READ,
    run: async (_s, _caller, args) => ({ tools: toolIndex().filter((t) => !args.family || t.family === args.family) }),
  }),
  define({
    name: "ping",
    title: "Ping",
    description: "Checks that the service answers, and whether the call carried a valid API token (and its scopes).",
    input: NoArgs,
    output: Type.Object({ ok: Type.Literal(true), time: Type.String({ format: "date-time" }), version: Type.String(), authenticated: Type.Boolean(), scopes: Type.Array(Type.String()) }),
    hints: READ,
    run: async (s, caller) => ({ ok: true as const, time: new Date().toISOString(), version: s.env.version, authenticated: caller !== null, scopes: caller?.scopes ?? [] }),
  }),
  define({
    name: "list_batches",
    title: "List my batches",
    description: "The token owner's batches, newest first, with their status and item counts (as GET /api/batch).",
    input: PageArgs,
    output: Page(Batch),
    hints: READ,
    run: (s, caller, args) => s.batches.list(caller.id, args.limit ?? 50, args.cursor),
  }),
  define({
    name: "list_workflows",
    title: "List my workflows",
    description: "The token owner's workflows, newest first (as GET /api/workflows); run one with run_workflow.",
    input: PageArgs,
    output: Page(Workflow),
    hints: READ,
    run: (s, caller, args) => s.workflows.list(caller.id, args.limit ?? 50, args.cursor),
  }),
  define({
    name: "create_batch",
    title: "Create a batch",
    description:
      "Runs one tool (type: a slug from list_tools) over many UPLOADED files of the token owner, exactly as POST /api/batch: charged batch.base_credits + batch.per_file_credits x files at once (INSUFFICIENT_CREDITS and nothing created when short); file count and total size bounded by the plan (LIMIT_EXCEEDED). Needs a token with the mcp:write scope.",
    input: CreateBatchBody,
    output: Type.Object({ batchId: Type.String(), credits: Type.Integer({ description: "charged" }) }),
    hints: CREATE,
    run: (s, caller, args) => s.batches.create(caller, args),
  }),
  define({
    name: "run_workflow",
    title: "Run a workflow",
    description:
      "Starts a run of one of the token owner's workflows on UPLOADED files (trigger mcp), exactly as POST /api/workflows/{id}/run: charged workflow.base_credits + workflow.per_step_credits x tool steps at once (INSUFFICIENT_CREDITS and nothing created when short). Needs a token with the mcp:write scope.",
    input: Type.Composite([Type.Object({ workflowId: Type.String({ minLength: 1, maxLength: 100 }) }), RunBody], { additionalProperties: false }),
    output: Type.Object({ runId: Type.String(), credits: Type.Integer({ description: "charged" }) }),
    hints: CREATE,
    run: (s, caller, args) => s.workflows.run(caller, args.workflowId, args.fileIds, "mcp"),
  }),
];

export const MCP_TOOLS_BY_NAME = new Map(MCP_TOOLS.map((t) => [t.name, t]));
