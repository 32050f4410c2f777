/** Picks the object store at boot: S3 when configured, else local disk under DATA_DIR/objects. */
import { join } from "node:path";
import { LocalStore } from "./local";
import { S3Store, type S3Config } from "./s3";
import type { ObjectStore } from "./types";

/** The part of the server's environment that chooses and configures the store. */
export interface StorageEnv {
  dataDir: string;
  s3?: S3Config | null;
}

/** One store per process, built at boot from the environment. */
export function createStore(env: StorageEnv): ObjectStore {
  return env.s3 ? new S3Store(env.s3) : new LocalStore(join(env.dataDir, "objects"));
}

export * from "./types";
export { LocalStore } from "./local";
export { S3Store, attachmentDisposition, type S3Config } from "./s3";
