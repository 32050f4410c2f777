/**
 * Test inputs: the shared third-party fixtures (../shared beside the repository, here and in CI)
 * and temporary files for the command-line checkers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolInput } from "@vektor/shared/tools/manifest";

/** The repo's fixtures/ folder (third-party samples with their provenance). */
export const SHARED_FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));

/** A point-cloud fixture as a tool input. */
export function pointcloudFixture(file: string): ToolInput {
  return { name: file, bytes: new Uint8Array(readFileSync(join(SHARED_FIXTURES, "pointcloud", file))) };
}

/** Writes `bytes` to a fresh temp dir, calls `use(path)`, then removes the dir. */
export function withTempFile<T>(name: string, bytes: Uint8Array, use: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "wasm-tools-test-"));
  try {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
