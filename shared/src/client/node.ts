/**
 * File-system helpers for the client on Node 20+ and Bun (package entry `@vektor/client/node`;
 * the CLI uses them): upload a path (resumable across processes), save a download to a file.
 * Kept out of the main entry, which must load in browsers.
 */
import { createHash } from "node:crypto";
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { candidateFormats } from "../formats";
import type { ConfirmResult } from "../schemas/file";
import type { Download } from "./download";
import { ApiError } from "./errors";
import type { VektorClient } from "./index";
import type { MultipartState, UploadOptions } from "./upload";

/** The MIME type the server expects for a file name (by extension), or application/octet-stream. */
export function mimeFor(filename: string): string {
  return candidateFormats("", filename)[0]?.mimes[0] ?? "application/octet-stream";
}

/** A lazy Blob over a file: slices are read from disk when sent. Missing file: ApiError NOT_FOUND. */
export async function fileBlob(path: string): Promise<Blob> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ApiError(0, "VALIDATION_ERROR", `${path} is not a file`, null);
    return await openAsBlob(path);
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") throw new ApiError(0, "NOT_FOUND", `no such file: ${path}`, null);
    throw err;
  }
}

export interface UploadFileOptions extends Partial<Omit<UploadOptions, "resume" | "onState">> {
  /**
   * A folder where the state of a multipart upload is kept while it runs: if the process dies
   * or is interrupted, uploading the same path (same size and mtime) again sends only the
   * missing parts. The state file is removed once the upload is confirmed.
   */
  stateDir?: string;
}

async function readState(file: string): Promise<MultipartState | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as MultipartState;
  } catch {
    return null;
  }
}

/** Upload a file by path: name and MIME type from the path unless given. */
export async function uploadFile(client: VektorClient, path: string, opts: UploadFileOptions = {}): Promise<ConfirmResult> {
  const blob = await fileBlob(path);
  const filename = opts.filename ?? basename(path);
  const base: UploadOptions = { ...opts, filename, mime: opts.mime ?? mimeFor(filename) };
  if (!opts.stateDir) return client.files.upload(blob, base);
  const info = await stat(path);
  const id = createHash("sha256").update(`${client.t.baseUrl}\n${resolve(path)}\n${info.size}\n${info.mtimeMs}`).digest("hex").slice(0, 32);
  const stateFile = join(opts.stateDir, `${id}.json`);
  await mkdir(opts.stateDir, { recursive: true, mode: 0o700 });
  const save = (s: MultipartState) => void writeFile(stateFile, JSON.stringify(s), { mode: 0o600 }).catch(() => {});
  const saved = await readState(stateFile);
  let result: ConfirmResult;
  try {
    result = await client.files.upload(blob, { ...base, onState: save, resume: saved ?? undefined });
  } catch (err) {
    // The server no longer knows the saved upload (completed, aborted, swept): start over once.
    if (!saved || !(err instanceof ApiError) || !["INVALID_STATE", "NOT_FOUND"].includes(err.code)) throw err;
    await rm(stateFile, { force: true });
    result = await client.files.upload(blob, { ...base, onState: save });
  }
  await rm(stateFile, { force: true });
  return result;
}

/** Writes a download to `dest`: a file path, or an existing folder (then the server's file name is used). */
export async function saveDownload(d: Download, dest: string, fallbackName = "download"): Promise<string> {
  let target = dest;
  const info = await stat(dest).catch(() => null);
  if (info?.isDirectory()) target = join(dest, basename(d.filename ?? fallbackName) || fallbackName);
  // DOM and Node name the same web stream with two types.
  await pipeline(Readable.fromWeb(d.body as unknown as NodeReadableStream<Uint8Array>), createWriteStream(target));
  return target;
}

/** Download a file to `dest` (a path or a folder); answers the path written. */
export async function downloadFile(client: VektorClient, fileId: string, dest: string): Promise<string> {
  return saveDownload(await client.files.open(fileId), dest, fileId);
}

/** sha256 hex of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of (await fileBlob(path)).stream()) hash.update(chunk);
  return hash.digest("hex");
}
