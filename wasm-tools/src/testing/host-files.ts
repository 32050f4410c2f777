/**
 * Test helpers for tools on host files (how the server's workers run io.hostFiles tools): an
 * input written as a host file and given as the server gives it, a fresh folder with an output
 * folder in it, and the files under a folder this process still has open. Test-only.
 */
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolInput } from "@vektor/shared/tools/manifest";

/** `bytes` written as a host file under `dir/in`, given as the server's host gives it: path, size, first 64 KiB. */
export function hostInput(dir: string, name: string, bytes: Uint8Array): ToolInput {
  const folder = join(dir, "in");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return { name, bytes: bytes.slice(0, 64 * 1024), path, size: bytes.length };
}

/** Runs `use` with a fresh folder and its empty `out` folder; removes both afterwards. */
export async function inHostFolder(prefix: string, use: (dir: string, outputDir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const outputDir = join(dir, "out");
  mkdirSync(outputDir);
  try {
    await use(dir, outputDir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files under `dir` this process has open (Linux). */
export function openFilesIn(dir: string): string[] {
  const targets = readdirSync("/proc/self/fd").map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return ""; // closed while listing
    }
  });
  return targets.filter((t) => t.startsWith(`${dir}/`));
}
