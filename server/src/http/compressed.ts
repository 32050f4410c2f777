/**
 * The large answers the server makes itself rather than the web build: the API reference's
 * script (/docs/scalar.js, 4.3 MB) and the OpenAPI document (488 KB). Each goes out brotli- or
 * gzip-compressed when the request's Accept-Encoding takes it, compressed once per content in
 * zlib's thread pool and kept (brotli: 1.1 MB and 24 KB); the web app's files are compressed at
 * build time instead (static.ts). Brotli at quality 6: the script in 0.25 s here, where 11 takes
 * 11 s for 10 % less.
 */
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { acceptedEncodings } from "./static";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type Coding = "br" | "gzip";
type Bytes = Uint8Array<ArrayBuffer>;

/** zlib's answer as a body Response takes (a Buffer is typed over any ArrayBufferLike). */
const bytesOf = (b: Buffer): Bytes => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);

/** The codings made here, best first. */
const CODERS: readonly (readonly [Coding, (bytes: Bytes) => Promise<Bytes>])[] = [
  ["br", async (bytes) => bytesOf(await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }))],
  ["gzip", async (bytes) => bytesOf(await gzipped(bytes))],
];

/** A text kept as UTF-8 (the string itself is not held) with its compressed forms, each made when first asked for. */
export class CompressibleText {
  private readonly bytes: Bytes;
  private readonly coded = new Map<Coding, Promise<Bytes>>();

  constructor(text: string) {
    this.bytes = new TextEncoder().encode(text);
  }

  /** The text in the best coding `acceptEncoding` allows (as it is when none), with `headers` and Vary: Accept-Encoding. */
  async response(acceptEncoding: string | null, headers: Record<string, string>): Promise<Response> {
    const accepted = acceptedEncodings(acceptEncoding);
    const coder = CODERS.find(([coding]) => accepted.has(coding));
    const all = { ...headers, vary: "Accept-Encoding" };
    if (!coder) return new Response(this.bytes, { headers: all });
    const [coding, encode] = coder;
    let body = this.coded.get(coding);
    if (!body) this.coded.set(coding, (body = encode(this.bytes)));
    return new Response(await body, { headers: { ...all, "content-encoding": coding } });
  }
}
