/**
 * Vitest for the web app's pure modules (`src/**\/*.test.ts`, run by `bun run test` here and by
 * `npm test`). Its own config, not vite.config.ts: the tests need none of the build's plugins
 * (PWA, icons, WASM assets), which would only slow every run.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    // The modules under test keep no global state; one worker per file only costs start-up.
    isolate: false,
  },
});
