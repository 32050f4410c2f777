/**
 * Every closed vocabulary of the service, said once: the values, the terminal subset where a
 * thing ends and its test (vocab-lists.ts, re-exported here), and a TypeBox union of each (the
 * API's schemas and OpenAPI use it). The database constrains its columns to the same lists
 * (server/src/db/schema.ts, CHECK constraints); the server imports them from here, the client and
 * the web app's shell from vocab-lists.ts, which carries no schema library.
 */
import { Type, type SchemaOptions, type TLiteral, type TUnion } from "@sinclair/typebox";
import { APPROVAL_STATUSES, BATCH_ITEM_STATUSES, BATCH_STATUSES, DECISIONS, FILE_STATUSES, JOB_STATUSES, MCP_ACCESS_LEVELS, NODE_CATEGORIES, RUN_STATUSES, RUN_TRIGGERS, STEP_STATUSES, TOKEN_SCOPES } from "./vocab-lists";

export * from "./vocab-lists";

/** A TypeBox union of string literals, one per value. */
export function literals<const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
}

export const FileStatus = literals(FILE_STATUSES);
export type FileStatus = typeof FileStatus.static;
export const JobStatus = literals(JOB_STATUSES);
export type JobStatus = typeof JobStatus.static;
export const BatchStatus = literals(BATCH_STATUSES);
export type BatchStatus = typeof BatchStatus.static;
export const BatchItemStatus = literals(BATCH_ITEM_STATUSES, { description: "queued, running, succeeded, failed, cancelled" });
export type BatchItemStatus = typeof BatchItemStatus.static;
export const RunStatus = literals(RUN_STATUSES);
export type RunStatus = typeof RunStatus.static;
export const StepStatus = literals(STEP_STATUSES);
export type StepStatus = typeof StepStatus.static;
export const ApprovalStatus = literals(APPROVAL_STATUSES);
export type ApprovalStatus = typeof ApprovalStatus.static;
export const Decision = literals(DECISIONS);
export type Decision = typeof Decision.static;
export const RunTrigger = literals(RUN_TRIGGERS);
export type RunTrigger = typeof RunTrigger.static;
export const TokenScope = literals(TOKEN_SCOPES);
export type TokenScope = typeof TokenScope.static;
export const NodeCategory = literals(NODE_CATEGORIES);
export type NodeCategory = typeof NodeCategory.static;
export const McpAccess = literals(MCP_ACCESS_LEVELS);
export type McpAccess = typeof McpAccess.static;
