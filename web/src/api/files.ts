/**
 * Stored files: a page of the list (searched by name), upload with per-file progress, delete,
 * and reuse: a file this device already sent (or the caller already has with the same bytes)
 * is run on again instead of being uploaded once more.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { candidateFormats } from "@vektor/shared/formats";
import { pickReusable, REUSE_MARGIN_MS } from "./reuse";
import { client } from "./client";

export const FILES_KEY = ["files"] as const;
const PAGE_SIZE = 20;

/** A page of the caller's files, newest first; `q` keeps those whose name contains it (the server searches). */
export function useFilesPage(cursor: string | undefined, q = "") {
  return useQuery({
    queryKey: [...FILES_KEY, q, cursor ?? ""],
    queryFn: () => client.files.list({ limit: PAGE_SIZE, cursor, q: q || undefined }),
    placeholderData: keepPreviousData,
  });
}

/** Deletes several files; answers the ids of those that could not be deleted (the rest are gone). */
export function useDeleteFiles() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (files: { fileId: string }[]): Promise<string[]> => {
      const settled = await Promise.allSettled(files.map((f) => client.files.delete(f.fileId)));
      return files.filter((_, i) => settled[i]!.status === "rejected").map((f) => f.fileId);
    },
    onSettled: () => queries.invalidateQueries({ queryKey: FILES_KEY }),
  });
}

/** The stored file behind a File object of this page (fetched from Files, or uploaded earlier). */
const storedIds = new WeakMap<File, string>();

/** A stored file's bytes as a File to choose on Convert, remembered as that stored file. */
export async function fetchStored(fileId: string, signal?: AbortSignal): Promise<File> {
  const record = await client.files.get(fileId);
  const download = await client.files.open(fileId, { signal });
  const file = new File([await new Response(download.body).blob()], record.filename, { type: record.mime });
  storedIds.set(file, fileId);
  return file;
}

/** Hashing reads the whole file into memory: above this, a file is uploaded without asking for a copy. */
const HASH_MAX_BYTES = 256 * 1024 * 1024;

async function sha256Hex(file: File): Promise<string | null> {
  // crypto.subtle exists only in a secure context (HTTPS or localhost); elsewhere, no reuse.
  if (!globalThis.crypto?.subtle || file.size > HASH_MAX_BYTES) return null;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await file.arrayBuffer()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The remembered stored file, if it is still there, ready and kept long enough for a run. */
async function stillStored(file: File): Promise<string | null> {
  const known = storedIds.get(file);
  if (!known) return null;
  const record = await client.files.get(known).catch(() => null);
  return record?.status === "UPLOADED" && Date.parse(record.expiresAt) - Date.now() > REUSE_MARGIN_MS ? known : null;
}

/**
 * The id of a stored file with this File's bytes: one this page already knows, else one the
 * caller has with the same sha256 (GET /api/files?checksum=), else a new upload. `reused` says
 * no bytes were sent.
 */
export async function storeFile(file: File, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<{ fileId: string; reused: boolean }> {
  const known = await stillStored(file);
  if (known) return { fileId: known, reused: true };
  const checksum = await sha256Hex(file);
  const same = checksum ? pickReusable((await client.files.list({ checksum, limit: 20 })).items, file.name, Date.now()) : null;
  const fileId = same?.fileId ?? (await client.files.upload(file, { filename: file.name, mime: mimeFor(file), onProgress, signal, checksum: checksum ?? undefined })).fileId;
  storedIds.set(file, fileId);
  return { fileId, reused: Boolean(same) };
}

/** One upload: the client sends it whole or in parts (above the multipart threshold). */
export function uploadFile(file: File, mime: string, onProgress: (sent: number, total: number) => void, signal?: AbortSignal) {
  return client.files.upload(file, { filename: file.name, mime, onProgress, signal });
}

/** The declared type of an upload: the browser's, else the format its extension names. */
export const mimeFor = (file: File) => file.type || candidateFormats("", file.name)[0]?.mimes[0] || "application/octet-stream";

/** A stored file's bytes (for previews of small files). */
export async function readFile(fileId: string): Promise<Blob> {
  const download = await client.files.open(fileId);
  return new Response(download.body, { headers: { "content-type": download.mime } }).blob();
}
