/**
 * Admission of tool jobs: the one check a tool job passes before it is queued, whoever asks (a
 * single run, a batch, a workflow's op step): the tool exists, its params fit its schema, the
 * input count fits the tool, every input is the user's own UPLOADED file, and no input is larger
 * than the tool takes on this server (its manifest's maxInputBytes within TOOL_MAX_INPUT_MB),
 * so an over-limit file is refused when the job is asked for, not once it runs. It answers a
 * refusal instead of throwing, so each endpoint keeps its own answer (an unknown tool is 404 on
 * POST /api/tools/{slug} and 400 in a batch body; a workflow step fails). The per-user limit is
 * applied where jobs are claimed (toolLaneLimits): a user may queue more than may run at once.
 */
import { fail, ServiceError } from "@vektor/shared/errors";
import { inputLimit, sizeProblem } from "@vektor/shared/tools/limits";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { getTool, validateParams } from "@vektor/wasm-tools";
import { and, eq, sql } from "drizzle-orm";
import { inJsonList, reusable } from "../db/reusable";
import type { Db, Tx } from "../db/client";
import { file } from "../db/schema";

export type RefusalReason = "UNKNOWN_TOOL" | "BAD_PARAMS" | "INPUT_COUNT" | "INPUT_MISSING" | "INPUT_NOT_UPLOADED" | "INPUT_TOO_LARGE";
export interface Refusal {
  refused: RefusalReason;
  message: string;
  /** The tool slug or file id the refusal is about. */
  subject: string;
}

/** A tool and its params, checked (params with the schema's defaults applied). */
export interface AdmittedTool {
  manifest: ToolManifest;
  params: Record<string, unknown>;
}

/** Files looked up per statement: a batch names thousands. */
const CHUNK = 500;

/** The tool exists and `params` fit its schema. */
export function admitTool(type: string, params: Record<string, unknown> | undefined): AdmittedTool | Refusal {
  const entry = getTool(type);
  if (!entry) return { refused: "UNKNOWN_TOOL", subject: type, message: `Unknown tool type "${type}"` };
  const checked = validateParams(type, params ?? {});
  if (!checked.ok) return { refused: "BAD_PARAMS", subject: type, message: `params: ${checked.message}` };
  return { manifest: entry.manifest, params: checked.params as Record<string, unknown> };
}

/** One run of the tool takes this many inputs (its manifest's minInputs..maxInputs). */
export function admitCount(manifest: ToolManifest, count: number): Refusal | null {
  const [min, max] = [manifest.io.minInputs ?? 1, manifest.io.maxInputs ?? 1];
  if (count >= min && count <= max) return null;
  return { refused: "INPUT_COUNT", subject: manifest.slug, message: `${manifest.slug} takes ${min === max ? min : `${min} to ${max}`} input file(s); ${count} given` };
}

/** An admitted input file. */
export interface AdmittedFile {
  id: string;
  name: string;
  size: number;
}

/** The size check of admitInputs: `tool` on a server whose tools read at most `serverMaxBytes` (TOOL_MAX_INPUT_MB). */
export interface SizeLimit {
  tool: Pick<ToolManifest, "slug" | "limits">;
  serverMaxBytes: number;
}

/** A file too large for the tool on this server (see SizeLimit), or null. */
export function admitSize(limit: SizeLimit, f: Pick<AdmittedFile, "id" | "name" | "size">): Refusal | null {
  const problem = sizeProblem(limit.tool.slug, f, inputLimit(limit.tool, limit.serverMaxBytes), "on this server");
  return problem ? { refused: "INPUT_TOO_LARGE", subject: f.id, message: problem } : null;
}

/** admitInputs's statement, built once (a workflow's start and each op step run it). */
const usersFiles = reusable((db) =>
  db
    .select({ id: file.id, status: file.status, size: file.size, name: file.filename })
    .from(file)
    .where(and(eq(file.userId, sql.placeholder("userId")), inJsonList(file.id, "ids"))),
);

/**
 * Every id is the user's own UPLOADED file (and, given `limit`, within the tool's input limit);
 * answers them and their sizes (in the order given).
 */
export async function admitInputs(db: Db | Tx, userId: string, ids: string[], limit?: SizeLimit): Promise<{ sizes: number[]; files: AdmittedFile[] } | Refusal> {
  const found = new Map<string, AdmittedFile & { status: string }>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await usersFiles(db, { userId, ids: JSON.stringify(ids.slice(i, i + CHUNK)) });
    for (const r of rows) found.set(r.id, r);
  }
  const missing = ids.find((id) => !found.has(id));
  if (missing) return { refused: "INPUT_MISSING", subject: missing, message: `File ${missing} not found` };
  const pending = ids.find((id) => found.get(id)!.status !== "UPLOADED");
  if (pending) return { refused: "INPUT_NOT_UPLOADED", subject: pending, message: `File ${pending} is not UPLOADED (confirm it first)` };
  const files = ids.map((id) => found.get(id)!);
  const tooLarge = limit && files.map((f) => admitSize(limit, f)).find(Boolean);
  if (tooLarge) return tooLarge;
  return { sizes: files.map((f) => f.size), files };
}

/**
 * Many tool jobs of one user (a workflow step's): each tool and count, then all their inputs in
 * one look-up, each within its tool's limit on a server whose tools read at most `serverMaxBytes`.
 */
export async function admitMany(db: Db | Tx, userId: string, reqs: { type: string; params?: Record<string, unknown>; fileIds: string[] }[], serverMaxBytes: number): Promise<AdmittedTool[] | Refusal> {
  const tools: AdmittedTool[] = [];
  for (const req of reqs) {
    const tool = admitTool(req.type, req.params);
    if (isRefusal(tool)) return tool;
    const count = admitCount(tool.manifest, req.fileIds.length);
    if (count) return count;
    tools.push(tool);
  }
  const ids = [...new Set(reqs.flatMap((r) => r.fileIds))];
  const inputs = await admitInputs(db, userId, ids);
  if (isRefusal(inputs)) return inputs;
  const byId = new Map(inputs.files.map((f) => [f.id, f]));
  for (const [i, req] of reqs.entries()) {
    for (const id of req.fileIds) {
      const tooLarge = admitSize({ tool: tools[i].manifest, serverMaxBytes }, byId.get(id)!);
      if (tooLarge) return tooLarge;
    }
  }
  return tools;
}

export function isRefusal(x: object): x is Refusal {
  return "refused" in x;
}

/**
 * The API error of a refusal. `unknownTool` says how the endpoint answers a tool it does not
 * know: as a missing resource (404, the tool is in the path) or as a bad field (400, in the body).
 */
export function refusalError(r: Refusal, unknownTool: "notFound" | "validation"): ServiceError {
  switch (r.refused) {
    case "UNKNOWN_TOOL":
      return unknownTool === "notFound" ? fail.notFound(`Tool "${r.subject}"`) : fail.validation(r.message);
    case "BAD_PARAMS":
    case "INPUT_COUNT":
      return fail.validation(r.message);
    case "INPUT_MISSING":
      return fail.notFound(`File ${r.subject}`);
    case "INPUT_NOT_UPLOADED":
      return fail.invalidState(r.message);
    case "INPUT_TOO_LARGE":
      return new ServiceError("LIMIT_EXCEEDED", r.message);
  }
}

/** Throws the refusal's API error (see refusalError); answers what was admitted. */
export function orThrow<T extends object>(x: T | Refusal, unknownTool: "notFound" | "validation"): T {
  if (isRefusal(x)) throw refusalError(x, unknownTool);
  return x;
}

/** The limits tool jobs are claimed under: per user (across all processes) and in all (0: none). */
export function toolLaneLimits(config: { get(key: "processing.max_concurrent_per_user" | "processing.max_concurrent"): Promise<number> }) {
  return async () => ({ perUser: await config.get("processing.max_concurrent_per_user"), global: await config.get("processing.max_concurrent") });
}

/**
 * The same limits from the settings' copy in memory, null when it is not fresh: inside a
 * transaction a read on PGlite (one connection) would wait for that transaction forever.
 */
export function toolLaneLimitsNow(config: { peek(key: "processing.max_concurrent_per_user" | "processing.max_concurrent"): number | undefined }) {
  return () => {
    const perUser = config.peek("processing.max_concurrent_per_user");
    const global = config.peek("processing.max_concurrent");
    return perUser === undefined || global === undefined ? null : { perUser, global };
  };
}
