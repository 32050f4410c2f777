/**
 * Builds the web app into web/dist: the React shell (one chunk per screen), its tool worker (an
 * ES module worker with one chunk per tool and each registered family's WASM as a hashed asset,
 * all under assets/tools/), the icons and web manifest, and the service worker at /sw.js
 * (Workbox, through vite-plugin-pwa). The service worker precaches the shell only: the entry
 * chunk and the screens anyone may open, with what they import (vite/first-visit.ts). The other
 * screens' chunks, files under assets/tools/ (and the previews' viewers under assets/viewers/,
 * the workflow editor under assets/editor/) are cached the first time they are asked for, so a
 * first visit fetches no tool WASM and a family or screen used once keeps working offline.
 */
import react from "@vitejs/plugin-react";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { appIcons, FAVICON, ICONS, THEME_COLOR } from "./vite/icons.ts";
import { TOOLS_CACHE } from "./src/tools/cache-name.ts";
import { toolFamilies } from "./vite/tool-families.ts";
import { firstVisit } from "./vite/first-visit.ts";
import { precompress } from "./vite/precompress.ts";
import { wasmRefs } from "./vite/wasm-refs.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const require = createRequire(import.meta.url);
/** Emits each bundled family's WASM and records its URL for src/workers/wasm-urls.ts (see vite/wasm-refs.ts). */
const wasm = () => wasmRefs(here("../wasm-tools/src"));
/** Which worker files each tool family needs, for caching a whole family once it was used (vite/tool-families.ts). */
const families = toolFamilies(here("../wasm-tools/src"));

/** Where the tool worker's chunks and binaries go: cached on use, never precached. */
const TOOLS_DIR = "assets/tools";
/**
 * Where the previews' viewers go (three.js, maplibre-gl and its worker: about 500 KB gzip):
 * cached on first use like the tools, never precached, so the app shell stays small.
 */
const VIEWERS_DIR = "assets/viewers";
const VIEWER_MODULES = /\/src\/components\/previews\/views\/|\/node_modules\/(three|maplibre-gl)\//;
/**
 * Where the workflow editor goes (React Flow, dagre, croner and the editor model: about 100 KB
 * gzip): loaded when a workflow is opened and cached then, never precached, so the shell does
 * not grow with it.
 */
const EDITOR_DIR = "assets/editor";
const EDITOR_MODULES = /\/src\/screens\/workflows\/editor\/|\/src\/workflows\/model\/|\/node_modules\/(@xyflow|@dagrejs|croner|d3-[a-z]+|zustand|classcat)\//;
/**
 * The screens anyone may open, precached with the shell: Convert runs tools offline; sign-in and
 * password reset are small and say what they need when offline.
 */
const OPEN_SCREENS = /\/src\/screens\/(convert\/ConvertScreen|SignInScreen|ResetPasswordScreen)\.tsx$/;
/**
 * Besides the shell's chunks, what is precached: the page, the web manifest, the family map and
 * the favicon. The PNG icons are for installing, which the browser fetches and keeps itself.
 */
const shell = firstVisit(OPEN_SCREENS, (url) => !url.startsWith("icons/") || url === FAVICON);
/** Paths the server answers itself; the service worker never serves them from its cache. */
const SERVER_PATHS = /^\/(api|docs|openapi\.json|status)(\/|$)/;

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

const pwa = VitePWA({
  strategies: "generateSW",
  // Registered by src/app/pwa.ts with workbox-window (update prompt, install state).
  injectRegister: false,
  registerType: "prompt",
  filename: "sw.js",
  manifestFilename: "manifest.webmanifest",
  manifest: {
    name: "Vektor",
    short_name: "Vektor",
    description: "Convert PDF, CAD, GIS, point-cloud, PCB, BIM and media files, in your browser or on your server.",
    theme_color: THEME_COLOR,
    background_color: "#ffffff",
    display: "standalone",
    start_url: "/",
    scope: "/",
    icons: ICONS.map((icon) => ({ ...icon })),
  },
  workbox: {
    globPatterns: ["**/*.{html,js,css,png,svg,json}"],
    globIgnores: [`${TOOLS_DIR}/**`, `${VIEWERS_DIR}/**`, `${EDITOR_DIR}/**`],
    manifestTransforms: [shell.manifestTransform],
    navigateFallback: "index.html",
    navigateFallbackDenylist: [SERVER_PATHS],
    // The first visit's page is controlled at once, so the tools it runs are cached; an update
    // waits for the person to accept the prompt.
    clientsClaim: true,
    skipWaiting: false,
    cleanupOutdatedCaches: true,
    inlineWorkboxRuntime: true,
    runtimeCaching: [
      {
        // Hashed names: a cached copy is never stale, so the cache answers first. The page drops
        // files of older builds (src/tools/offline.ts).
        urlPattern: /\/assets\/tools\//,
        handler: "CacheFirst",
        options: { cacheName: TOOLS_CACHE, cacheableResponse: { statuses: [200] } },
      },
      {
        urlPattern: /\/assets\/viewers\//,
        handler: "CacheFirst",
        options: { cacheName: "vektor-viewers", cacheableResponse: { statuses: [200] }, expiration: { maxEntries: 40 } },
      },
      {
        // The other screens' chunks (hashed, like the tools): cached when a screen first opens.
        urlPattern: /\/assets\/[^/]+\.(js|css)$/,
        handler: "CacheFirst",
        options: { cacheName: "vektor-screens", cacheableResponse: { statuses: [200] }, expiration: { maxEntries: 120 } },
      },
      {
        urlPattern: /\/assets\/editor\//,
        handler: "CacheFirst",
        options: { cacheName: "vektor-editor", cacheableResponse: { statuses: [200] }, expiration: { maxEntries: 20 } },
      },
    ],
  },
});

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
      output: {
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => VIEWER_MODULES.test(id)) ? `${VIEWERS_DIR}/[name]-[hash].js` : chunk.moduleIds.some((id) => EDITOR_MODULES.test(id)) ? `${EDITOR_DIR}/[name]-[hash].js` : "assets/[name]-[hash].js",
        assetFileNames: (asset) =>
          asset.names.some((n) => n.startsWith("maplibre-gl-worker"))
            ? `${VIEWERS_DIR}/[name]-[hash][extname]`
            : asset.originalFileNames.some((n) => EDITOR_MODULES.test(`/${n}`))
              ? `${EDITOR_DIR}/[name]-[hash][extname]`
              : "assets/[name]-[hash][extname]",
      },
    },
  },
  resolve: { alias: nodeShims.alias },
  worker: {
    format: "es",
    plugins: () => [wasm(), families.worker()],
    // mupdf's glue imports these only when it runs under Node.
    rolldownOptions: {
      external: ["module", "node:fs"],
      transform: { inject: nodeShims.inject },
      checks: { bundlerTimings: false },
      output: {
        entryFileNames: `${TOOLS_DIR}/[name]-[hash].js`,
        chunkFileNames: `${TOOLS_DIR}/[name]-[hash].js`,
        assetFileNames: `${TOOLS_DIR}/[name]-[hash][extname]`,
      },
    },
  },
  // wasm() here too: the dev server runs the worker's modules through these plugins.
  // precompress() last: brotli and gzip copies of everything, sw.js included (vite/precompress.ts).
  plugins: [react(), wasm(), appIcons(), families.page(), shell.plugin, pwa, precompress(here("node_modules/.cache/vektor-precompress"))],
});
