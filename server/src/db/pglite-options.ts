/**
 * How PGlite is opened, the same in the server and in the child that runs initdb (which
 * imports only this, not the rest of the database layer).
 */
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

export function pgliteOptions(sharedBuffers: string): PGliteOptions {
  return { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`] };
}
