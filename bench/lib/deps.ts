/**
 * What the tool and batch benchmarks need from the other workspaces. The bench package declares
 * only @vektor/shared, and Bun's isolated installs resolve a bare name only inside a package that
 * declares it, so these are reached by path: each module then resolves its own imports from its
 * own workspace, exactly as it does in the server.
 */
export { WorkerPool } from "../../server/src/tools/pool";
export { createLogger } from "../../server/src/log";
export { execute, listManifests, setWasmLocator } from "../../wasm-tools/src/index";
export { nodeModulesWasmLocator } from "../../wasm-tools/src/runtime/node-wasm";
export { PDFDocument, StandardFonts, rgb, degrees, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } from "../../wasm-tools/node_modules/pdf-lib";
export { default as postgres } from "../../server/node_modules/postgres";
export { drizzle } from "../../server/node_modules/drizzle-orm/postgres-js";
export { claimStatement, QUEUED } from "../../server/src/queue/claim";
export { schema } from "../../server/src/db/schema";
export type { Db } from "../../server/src/db/client";
export { openDatabase } from "../../server/src/db/client";
export { inArray } from "../../server/node_modules/drizzle-orm";
export { pcmWav } from "../../wasm-tools/src/testing/wav";
export { makeBloatedPdf } from "../../wasm-tools/src/testing/pdf-fixtures";
export { writeImagePdf } from "../../wasm-tools/src/testing/big-pdf";

import { join } from "node:path";
export const REPO = join(import.meta.dir, "..", "..");
/** Real Gerber boards shipped by @tracespace/fixtures (a dev dependency of wasm-tools and server). */
export const TRACESPACE_BOARDS = join(REPO, "wasm-tools", "node_modules", "@tracespace", "fixtures", "boards");
