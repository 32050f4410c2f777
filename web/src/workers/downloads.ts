/**
 * An engine's download in the tool worker, told to the page as it goes: the worker fetches each
 * WASM (or data) file itself, counting the bytes, and posts `EngineDownload` messages beside
 * comlink's (which ignores them), so the page can show a bar and the size the first time a family
 * is used. Sizes: `total` is the file's own size (the server's `x-decoded-length` when it sends a
 * compressed copy, else Content-Length), `wire` what travels (Content-Length), when known.
 */
export interface EngineDownload {
  type: "engine-download";
  /** The binary's name (`WasmModuleRef.name`). */
  name: string;
  loaded: number;
  total: number | null;
  wire: number | null;
  done: boolean;
}

/** Smallest gap between two messages about one download, in ms (the last always goes). */
const INTERVAL_MS = 100;

const numberOr = (value: string | null) => (value && Number(value) > 0 ? Number(value) : null);

/** Fetches `url`, posting progress through `post`, and returns its bytes. */
export async function download(url: string, name: string, post: (message: EngineDownload) => void): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const length = numberOr(response.headers.get("content-length"));
  const encoded = Boolean(response.headers.get("content-encoding"));
  const total = numberOr(response.headers.get("x-decoded-length")) ?? (encoded ? null : length);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let last = 0;
  const tell = (done: boolean) => post({ type: "engine-download", name, loaded, total, wire: length, done });
  tell(false);
  for (const reader = response.body.getReader(); ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    if (Date.now() - last >= INTERVAL_MS) (last = Date.now()), tell(false);
  }
  tell(true);
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return bytes;
}
