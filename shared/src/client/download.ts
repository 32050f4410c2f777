/** A streamed download (a file, a batch ZIP) with the name and size its headers give. */
import type { Transport } from "./transport";

export interface Download {
  /** The bytes, streamed; read it once (or cancel it). */
  body: ReadableStream<Uint8Array>;
  /** From Content-Disposition (its UTF-8 form when present). */
  filename: string | null;
  mime: string;
  /** Content-Length, when sent. */
  size: number | null;
  /** The HTTP answer, for the other headers (ETag, Content-Range). */
  response: Response;
}

/** The file name of a Content-Disposition header: `filename*=UTF-8''...` first, then `filename="..."`. */
export function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // malformed escape: fall back to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? (plain[1] ?? plain[2]).trim() : null;
}

/** GET `path` as a Download; a non-2xx answer is an ApiError. */
export async function openDownload(t: Transport, path: string, opts: { range?: string; signal?: AbortSignal } = {}): Promise<Download> {
  const res = await t.fetchOk(path, { headers: opts.range ? { range: opts.range } : {}, signal: opts.signal });
  const length = res.headers.get("content-length");
  return {
    body: res.body ?? new ReadableStream({ start: (c) => c.close() }),
    filename: filenameOf(res.headers.get("content-disposition")),
    mime: res.headers.get("content-type") ?? "application/octet-stream",
    size: length === null ? null : Number(length),
    response: res,
  };
}
