/**
 * Writes a brotli (`name.br`) and a gzip (`name.gz`) copy beside every compressible file of the
 * build (scripts, styles, HTML, JSON, SVG, WASM and Emscripten data), for the server to send in
 * the coding a browser accepts (server/src/http/static.ts). A copy that would not be smaller is
 * not written. Runs after the service worker is generated, so sw.js gets its copies too.
 *
 * Brotli at quality 5 for the big files (the tool engines are ~100 MB of WASM, and 5 gives within
 * a few per cent of 9 in a tenth of the time), 11 for the small ones (the shell). Copies of content-hashed files are kept in a cache folder
 * by name and size, so a rebuild compresses only what changed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(html|js|mjs|css|json|webmanifest|svg|txt|map|wasm|data)$/;
/** Vite's content-hashed files (`assets/…/name-AbC123_x.ext`): the same name is the same bytes. */
const HASHED = /\/assets\/.*-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;
const MIN_BYTES = 512;

/** Files up to this size (the app shell's) get brotli's best quality, 11: a second for all of them. */
const BEST_UP_TO = 1024 * 1024;

export const CODINGS = {
  br: (bytes: Uint8Array) =>
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: bytes.length <= BEST_UP_TO ? 11 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  gz: (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }),
} as const;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

/** The compressed copy, from the cache when the file's name is content-hashed. */
function compressed(path: string, bytes: Uint8Array, ext: keyof typeof CODINGS, cacheDir: string): Uint8Array {
  if (!HASHED.test(path)) return CODINGS[ext](bytes);
  const key = createHash("sha256").update(`${path.split("/").pop()}:${bytes.length}`).digest("hex").slice(0, 32);
  const cached = join(cacheDir, `${key}.${ext}`);
  if (existsSync(cached)) return readFileSync(cached);
  const out = CODINGS[ext](bytes);
  writeFileSync(cached, out);
  return out;
}

/** Precompresses `dir` in place; returns how many copies were written. */
export function precompressDir(dir: string, cacheDir: string): number {
  mkdirSync(cacheDir, { recursive: true });
  let written = 0;
  for (const path of filesUnder(dir)) {
    const bytes = readFileSync(path);
    if (bytes.length < MIN_BYTES) continue;
    for (const ext of Object.keys(CODINGS) as (keyof typeof CODINGS)[]) {
      const out = compressed(path, bytes, ext, cacheDir);
      if (out.length >= bytes.length) continue;
      writeFileSync(`${path}.${ext}`, out);
      written++;
    }
  }
  return written;
}

export function precompress(cacheDir: string): Plugin {
  let outDir = "";
  return {
    name: "vektor-precompress",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After every other plugin's closeBundle (vite-plugin-pwa writes sw.js there).
    closeBundle: {
      order: "post",
      sequential: true,
      handler() {
        const started = performance.now();
        const written = precompressDir(outDir, cacheDir);
        this.info?.(`precompressed ${written} files in ${relative(process.cwd(), outDir) || "."} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      },
    },
  };
}
