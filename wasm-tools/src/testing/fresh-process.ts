/**
 * Runs a script body in a fresh Bun process, so module state (and with it each family's
 * one-time WASM load) starts empty. The body sees `SRC`, the wasm-tools src folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SRC = join(import.meta.dir, "..");

export async function inFreshProcess(body: string): Promise<{ code: number; out: string; err: string }> {
  const dir = mkdtempSync(join(tmpdir(), "wasm-fresh-"));
  try {
    const script = join(dir, "main.ts");
    writeFileSync(script, `const SRC = ${JSON.stringify(SRC)};\n${body}`);
    const proc = Bun.spawn([process.execPath, script], { cwd: join(SRC, ".."), stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, out, err };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
