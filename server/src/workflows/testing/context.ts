/**
 * Test helpers: a StepContext over an in-memory set of files, standing in for the engine's
 * storage (nodes only see the StepFiles interface). Params go through the kind's real schema.
 */
import { checkParams } from "@vektor/wasm-tools";
import type { FileRef, NodeKind, StepContext, StepFiles } from "../nodes/types";

let seq = 0;

/** A file reference; the format is guessed by nobody: pass it (null = unknown). */
export function fileRef(filename: string, format: string | null, over: Partial<FileRef> = {}): FileRef {
  seq += 1;
  return { id: `f${seq}`, filename, mime: "application/octet-stream", size: 100, format, createdAt: new Date(Date.UTC(2025, 0, 1, 0, seq)), ...over };
}

/** In-memory StepFiles: `owned` are the owner's uploads; new files are recorded in `created`. */
export function memoryFiles(owned: FileRef[] = []) {
  const created: { how: "zip" | "copy"; file: FileRef; from: FileRef[] }[] = [];
  const sinceAsked: (Date | null)[] = [];
  const files: StepFiles = {
    async zip(name, from) {
      const file = fileRef(name, "zip", { mime: "application/zip" });
      created.push({ how: "zip", file, from });
      return file;
    },
    async copyAs(from, filename) {
      const file = { ...fileRef(filename, from.format), mime: from.mime, size: from.size };
      created.push({ how: "copy", file, from: [from] });
      return file;
    },
    async byIds(ids) {
      return ids.flatMap((id) => owned.filter((f) => f.id === id));
    },
    async uploadedSince(since) {
      sinceAsked.push(since);
      return owned.filter((f) => !since || f.createdAt > since);
    },
  };
  return { files, created, sinceAsked };
}

/** A context for `kind` with `params` checked (defaults applied) and `over` on top; `logs` collects log lines. */
export function contextFor(kind: NodeKind, params: Record<string, unknown> = {}, over: Partial<StepContext> = {}) {
  const checked = checkParams(kind.description.params, params);
  if (!checked.ok) throw new Error(checked.message);
  const logs: string[] = [];
  const ctx: StepContext = {
    runId: "run1",
    userId: "user1",
    nodeId: "node1",
    params: checked.params,
    inputs: [],
    runInputs: [],
    previousRunAt: null,
    startedAt: new Date("2025-03-04T05:06:07Z"),
    nested: false,
    files: memoryFiles().files,
    log: (line) => void logs.push(line),
    ...over,
  };
  return { ctx, logs };
}
