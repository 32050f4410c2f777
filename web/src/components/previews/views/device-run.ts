/** Runs a tool on this device for a viewer (LAZ to LAS, PDF pages, GIS data to GeoJSON). */
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { blobInput, runOnDevice } from "../../../tools/device";

/** Generous: a viewer's conversion of a big file on a slow device. */
const TIMEOUT_MS = 300_000;

export async function runForView(slug: string, file: { name: string; blob: Blob }, params: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput[]> {
  // The Blob goes as it is (read whole in the worker, or mounted by a tool that streams).
  return runOnDevice(slug, [await blobInput(file.name, file.blob)], params, { signal, timeoutMs: TIMEOUT_MS });
}
