/** Stored files: a page of the list, upload with per-file progress, delete. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { candidateFormats } from "@vektor/shared/formats";
import { client } from "./client";

export const FILES_KEY = ["files"] as const;
const PAGE_SIZE = 20;

export function useFilesPage(cursor: string | undefined) {
  return useQuery({ queryKey: [...FILES_KEY, cursor ?? ""], queryFn: () => client.files.list({ limit: PAGE_SIZE, cursor }), placeholderData: keepPreviousData });
}

export function useDeleteFile() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (fileId: string) => client.files.delete(fileId), onSuccess: () => queries.invalidateQueries({ queryKey: FILES_KEY }) });
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
