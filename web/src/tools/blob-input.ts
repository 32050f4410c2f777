/**
 * A file as a tool input without a copy of it in this page's memory: the Blob itself
 * (ToolInput.blob), its size and its first bytes. The tool worker mounts it for a tool that
 * streams (io.blobInputs: read piece by piece) and reads it whole there for any other.
 * Kept apart from device.ts (which starts the worker) so the runner core can use it anywhere.
 */
import type { ToolInput } from "@vektor/shared/tools/manifest";

/** How much of a file's start goes with it as bytes: enough to tell its format (the server's job files give as much). */
export const HEAD_BYTES = 64 * 1024;

export async function blobInput(name: string, blob: Blob, mime = blob.type || undefined): Promise<ToolInput> {
  return { name, mime, bytes: new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()), blob, size: blob.size };
}
