/** Runs a tool on this device for a viewer (LAZ to LAS, PDF pages, GIS data to GeoJSON). */
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { runOnDevice } from "../../../tools/device";

/** Generous: a viewer's conversion of a big file on a slow device. */
const TIMEOUT_MS = 300_000;

export async function runForView(slug: string, file: { name: string; blob: Blob }, params: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput[]> {
  // A fresh copy each time: the bridge transfers (detaches) the bytes it is given.
  const bytes = new Uint8Array(await file.blob.arrayBuffer());
  return runOnDevice(slug, [{ name: file.name, bytes, mime: file.blob.type || undefined }], params, { signal, timeoutMs: TIMEOUT_MS });
}
