/**
 * Child-process entry: initialises a new PGlite data directory (initdb) and exits.
 * Usage: bun pglite-init.ts <dir> <shared_buffers>. See initPgliteInChild in client.ts.
 */
import { PGlite } from "@electric-sql/pglite";
import { pgliteOptions } from "./pglite-options";

const [dir, sharedBuffers] = process.argv.slice(2);
if (!dir || !sharedBuffers) throw new Error("usage: pglite-init.ts <dir> <shared_buffers>");
const client = new PGlite(dir, pgliteOptions(sharedBuffers));
await client.waitReady;
await client.close();
