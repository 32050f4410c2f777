/** Command-line inputs: `--param k=v`, and file arguments (local paths to upload, or file ids). */
import type { ConfirmResult } from "@vektor/shared/schemas/file";
import { uploadFile } from "@vektor/shared/client/node";
import { existsSync } from "node:fs";
import type { Context } from "./context";
import { UsageError } from "./context";
import { uploadProgress } from "./progress";
import { uploadStateDir } from "./settings";

/** Collects repeated `--param k=v` into an object; a value that parses as JSON is taken as JSON (numbers, booleans, lists). */
export function collectParam(raw: string, into: Record<string, unknown> = {}): Record<string, unknown> {
  const eq = raw.indexOf("=");
  if (eq <= 0) throw new UsageError(`--param needs key=value, got "${raw}"`);
  const key = raw.slice(0, eq).trim();
  const value = raw.slice(eq + 1);
  if (!/^[A-Za-z_][\w.-]*$/.test(key)) throw new UsageError(`--param key "${key}" is not a name`);
  let parsed: unknown = value;
  try {
    parsed = JSON.parse(value);
  } catch {
    // a plain string
  }
  return { ...into, [key]: parsed };
}

const FILE_ID = /^f_[0-9A-Za-z]{20}$/;

/** Checks every argument before any upload: a missing file is bad usage, found before anything is sent. */
export function checkFileArgs(args: string[]): void {
  for (const a of args) if (!existsSync(a) && !FILE_ID.test(a)) throw new UsageError(`no such file: ${a}`);
}

/** Uploads the paths (resumable) and passes file ids through; answers the file ids in order. */
export async function fileIdsOf(ctx: Context, args: string[], signal?: AbortSignal): Promise<string[]> {
  checkFileArgs(args);
  const ids: string[] = [];
  for (const a of args) {
    if (!existsSync(a)) {
      ids.push(a);
      continue;
    }
    const f = await uploadOne(ctx, a, signal);
    ids.push(f.fileId);
  }
  return ids;
}

export async function uploadOne(ctx: Context, path: string, signal?: AbortSignal): Promise<ConfirmResult> {
  const bar = uploadProgress(ctx, path);
  try {
    const f = await uploadFile(ctx.client, path, { stateDir: uploadStateDir(), signal, onProgress: bar.update });
    bar.done(`uploaded ${path} -> ${f.fileId}`);
    return f;
  } catch (err) {
    bar.stop();
    throw err;
  }
}
