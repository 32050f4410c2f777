/** Real test files: generated in code (PDF via pdf-lib) or copied third-party samples in /fixtures. */
import { linePdf } from "@vektor/wasm-tools/testing/pdf-fixtures";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");

/** A PDF of `pages` A4 pages reading "`text` page n", titled `text`. */
export function makePdf(pages = 2, text = "Vektor test"): Promise<Uint8Array<ArrayBuffer>> {
  return linePdf(pages, (n) => `${text} page ${n}`, text);
}

export function fixture(path: string): Blob {
  return Bun.file(join(FIXTURES, path));
}

export function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** Deterministic pseudo-random bytes (xorshift), fast and reproducible. */
export function noise(size: number, seed = 42): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  const view = new Uint32Array(out.buffer, 0, Math.floor(size / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < view.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    view[i] = x >>> 0;
  }
  return out;
}
