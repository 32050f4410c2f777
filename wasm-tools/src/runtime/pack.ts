/**
 * How a tool worker hands its outcome to its host, the same in the browser (comlink) and on the
 * server (Bun Worker postMessage): outputs leave as transferred buffers, failures as typed errors.
 */
import { ToolError, type ToolOutput } from "@vektor/shared/tools/manifest";
import type { RunResult } from "./worker-protocol";

/**
 * Each output owning exactly its buffer: a tool may return two views of one ArrayBuffer (or a
 * view into a WASM heap), and listing a buffer twice in a transfer list, or detaching a heap,
 * fails the whole message. Such outputs are copied; the rest move without a copy.
 */
export function ownBuffers(outputs: ToolOutput[]): ToolOutput[] {
  const seen = new Set<ArrayBufferLike>();
  return outputs.map((o) => {
    const whole = o.bytes.byteOffset === 0 && o.bytes.byteLength === o.bytes.buffer.byteLength && o.bytes.buffer instanceof ArrayBuffer;
    const bytes = whole && !seen.has(o.bytes.buffer) ? o.bytes : o.bytes.slice();
    seen.add(bytes.buffer);
    return { ...o, bytes };
  });
}

/** A successful run's result and the buffers to transfer with it (each exactly once). */
export function packOutputs(outputs: ToolOutput[]): { result: Extract<RunResult, { ok: true }>; transfer: ArrayBuffer[] } {
  const owned = ownBuffers(outputs);
  return { result: { ok: true, outputs: owned }, transfer: owned.map((o) => o.bytes.buffer as ArrayBuffer) };
}

/** Any thrown value as the typed error a host records (never a thrown object across the boundary). */
export function packError(err: unknown): Extract<RunResult, { ok: false }> {
  const error = err instanceof ToolError ? { code: err.code, message: err.message } : { code: "TOOL_FAILED" as const, message: String((err as Error)?.message ?? err) };
  return { ok: false, error };
}
