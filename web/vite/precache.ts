/**
 * Build-time half of the service worker: after the bundle is written, lists every file of the
 * build (app shell, page and worker chunks, WASM) and writes that list, with a version derived
 * from the names and index.html, into `sw.js` in place of its placeholder. A new build changes
 * sw.js, so browsers install the new version.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { Plugin } from "vite";

/** The token in src/sw.ts that the list replaces (a string literal, any quote style). */
export const PRECACHE_PLACEHOLDER = "__VEKTOR_PRECACHE_MANIFEST__";

/** Files the service worker must not cache (itself; maps, which nobody requests offline). */
const SKIP = (path: string) => path === "sw.js" || path.endsWith(".map") || path.startsWith(".vite/");

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full, root) : [relative(root, full).split(sep).join("/")];
  });
}

export function precacheManifest(): Plugin {
  let outDir = "dist";
  return {
    name: "vektor:precache-manifest",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = walk(outDir).filter((f) => !SKIP(f)).sort();
      const hash = createHash("sha256").update(files.join("\n"));
      hash.update(readFileSync(join(outDir, "index.html"), "utf8"));
      const manifest = { version: hash.digest("hex").slice(0, 16), urls: ["./", ...files.map((f) => `./${f}`)] };
      const swPath = join(outDir, "sw.js");
      const sw = readFileSync(swPath, "utf8");
      const token = new RegExp(`(["'\`])${PRECACHE_PLACEHOLDER}\\1`);
      if (!token.test(sw)) throw new Error(`vektor:precache-manifest: ${PRECACHE_PLACEHOLDER} not found in sw.js`);
      writeFileSync(swPath, sw.replace(token, () => JSON.stringify(JSON.stringify(manifest))));
    },
  };
}
