import { describe, expect, test } from "bun:test";
import { readEnv } from "./env";

describe("readEnv", () => {
  test("PGLITE_SHARED_BUFFERS: 16MB by default, a Postgres size when set, an error otherwise", () => {
    expect(readEnv({}).pgliteSharedBuffers).toBe("16MB");
    expect(readEnv({ PGLITE_SHARED_BUFFERS: "512kB" }).pgliteSharedBuffers).toBe("512kB");
    expect(() => readEnv({ PGLITE_SHARED_BUFFERS: "lots" })).toThrow(/PGLITE_SHARED_BUFFERS must be a size/);
    expect(() => readEnv({ PGLITE_SHARED_BUFFERS: "16 MB; drop" })).toThrow(/PGLITE_SHARED_BUFFERS/);
  });

  test("DATABASE_POOL_MAX: 4 connections for ROLE=worker, 10 for the others, at least 2 when set", () => {
    expect(readEnv({ ROLE: "worker" }).databasePoolMax).toBe(4);
    expect(readEnv({}).databasePoolMax).toBe(10);
    expect(readEnv({ ROLE: "api" }).databasePoolMax).toBe(10);
    expect(readEnv({ ROLE: "worker", DATABASE_POOL_MAX: "12" }).databasePoolMax).toBe(12);
    expect(() => readEnv({ DATABASE_POOL_MAX: "1" })).toThrow(/DATABASE_POOL_MAX must be at least 2/);
    expect(() => readEnv({ DATABASE_POOL_MAX: "many" })).toThrow(/DATABASE_POOL_MAX must be a non-negative integer/);
  });

  test("DATABASE_PREPARE: prepared statements on PostgreSQL unless it says false", () => {
    expect(readEnv({}).databasePrepare).toBe(true);
    expect(readEnv({ DATABASE_PREPARE: "true" }).databasePrepare).toBe(true);
    expect(readEnv({ DATABASE_PREPARE: "false" }).databasePrepare).toBe(false);
  });
});
