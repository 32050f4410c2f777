/**
 * Outputs a tool worker writes to files itself (PoolRequest `staging`): each output it holds as
 * bytes goes to a new file in the staging folder, hashed on the worker's thread; the server's
 * thread then only renames it into place (ObjectStore.placeStaged). Should a write fail, what was
 * staged is removed and the outputs go back as bytes, so the server writes them and meets the
 * failure where it is handled (a retry, a wait for the store). A file staged for an outcome that
 * is not recorded is removed by whoever drops it (removeStaged), or by the store's sweep.
 */
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inFolderSync } from "../storage/local-fs";
import type { PooledOutput } from "./pool-protocol";

/** The outputs, each held as bytes written to a file of its own in `dir` (made if missing). */
export function stageOutputs(dir: string, outputs: ToolOutput[]): PooledOutput[] {
  const staged: PooledOutput[] = [];
  try {
    for (const out of outputs) staged.push(out.path || out.blob ? out : stageOne(dir, out));
    return staged;
  } catch {
    removeStaged(staged);
    return outputs;
  }
}

function stageOne(dir: string, out: ToolOutput): PooledOutput {
  const path = join(dir, `out-${randomBytes(12).toString("hex")}`);
  try {
    // The folder is made on first use, or when something removed it since.
    inFolderSync(path, () => writeFileSync(path, out.bytes));
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  }
  const sha256 = new Bun.CryptoHasher("sha256").update(out.bytes).digest("hex");
  return { name: out.name, mime: out.mime, bytes: new Uint8Array(0), staged: { path, size: out.bytes.byteLength, sha256 } };
}

/** Removes the files of staged outputs (those already moved into place are gone from there: nothing happens). */
export function removeStaged(outputs: readonly PooledOutput[]): void {
  for (const out of outputs) if (out.staged) rmSync(out.staged.path, { force: true });
}
