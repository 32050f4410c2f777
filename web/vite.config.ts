/**
 * Builds the web app into web/dist: the page, its tool worker (an ES module worker with one
 * chunk per tool and each registered family's WASM as a hashed asset), and the service worker
 * at /sw.js with the list of files to keep for offline use.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { precacheManifest } from "./vite/precache.ts";
import { wasmRefs } from "./vite/wasm-refs.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // WASM and data packages stay files (fetched and compiled streaming), never data: URLs.
    assetsInlineLimit: (file) => (/\.(wasm|data)$/.test(file) ? false : undefined),
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      input: { main: here("index.html"), sw: here("src/sw.ts") },
      output: { entryFileNames: (chunk) => (chunk.name === "sw" ? "sw.js" : "assets/[name]-[hash].js") },
    },
  },
  worker: {
    format: "es",
    plugins: () => [wasmRefs(here("../wasm-tools/src"), here("src/workers/wasm-urls.ts"))],
    // mupdf's glue imports these only when it runs under Node.
    rolldownOptions: { external: ["module", "node:fs"] },
  },
  plugins: [precacheManifest()],
});
