/**
 * Builds the web app into web/dist: the page, its tool worker (an ES module worker with one
 * chunk per tool and each registered family's WASM as a hashed asset), and the service worker
 * at /sw.js with the list of files to keep for offline use.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { precacheManifest } from "./vite/precache.ts";
import { wasmRefs } from "./vite/wasm-refs.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const require = createRequire(import.meta.url);
/** Emits each bundled family's WASM and records its URL for src/workers/wasm-urls.ts (see vite/wasm-refs.ts). */
const wasm = () => wasmRefs(here("../wasm-tools/src"));

/**
 * Node built-ins that tool libraries written for browserify expect (the PCB family's gerber
 * parsers run on readable-stream 3: `require("buffer")`, `require("events")`, `process.nextTick`),
 * mapped to their browser packages. Libraries that test for Node look at `process.versions.node`,
 * which the browser `process` does not have.
 */
const nodeShims = {
  alias: { buffer: require.resolve("buffer/"), events: require.resolve("events/") },
  inject: { process: require.resolve("process/browser.js") },
};

export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // WASM and data packages stay files (fetched and compiled streaming), never data: URLs.
    assetsInlineLimit: (file) => (/\.(wasm|data)$/.test(file) ? false : undefined),
    chunkSizeWarningLimit: 4096,
    // gzip sizes of ~100 MB of WASM take seconds and tell nothing.
    reportCompressedSize: false,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      input: { main: here("index.html"), sw: here("src/sw.ts") },
      output: { entryFileNames: (chunk) => (chunk.name === "sw" ? "sw.js" : "assets/[name]-[hash].js") },
    },
  },
  resolve: { alias: nodeShims.alias },
  worker: {
    format: "es",
    plugins: () => [wasm()],
    // mupdf's glue imports these only when it runs under Node.
    rolldownOptions: { external: ["module", "node:fs"], transform: { inject: nodeShims.inject }, checks: { bundlerTimings: false } },
  },
  // wasm() here too: the dev server runs the worker's modules through these plugins.
  plugins: [wasm(), precacheManifest()],
});
