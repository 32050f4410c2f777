import { describe, expect, test } from "bun:test";
import { readEnv } from "./env";

describe("readEnv", () => {
  test("PGLITE_SHARED_BUFFERS: 16MB by default, a Postgres size when set, an error otherwise", () => {
    expect(readEnv({}).pgliteSharedBuffers).toBe("16MB");
    expect(readEnv({ PGLITE_SHARED_BUFFERS: "512kB" }).pgliteSharedBuffers).toBe("512kB");
    expect(() => readEnv({ PGLITE_SHARED_BUFFERS: "lots" })).toThrow(/PGLITE_SHARED_BUFFERS must be a size/);
    expect(() => readEnv({ PGLITE_SHARED_BUFFERS: "16 MB; drop" })).toThrow(/PGLITE_SHARED_BUFFERS/);
  });

  test("DATABASE_PREPARE: prepared statements on PostgreSQL unless it says false", () => {
    expect(readEnv({}).databasePrepare).toBe(true);
    expect(readEnv({ DATABASE_PREPARE: "true" }).databasePrepare).toBe(true);
    expect(readEnv({ DATABASE_PREPARE: "false" }).databasePrepare).toBe(false);
  });
});
