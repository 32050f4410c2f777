/**
 * Running GIS tools in tests the way hosts do (execute: params validated, inputs checked), with
 * the WASM and data files from node_modules through the host locator. The family's entries are
 * used directly, so the tests do not depend on the registry listing the family.
 */
import "../../testing/node-host";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../../runtime/execute";
import { gisTools } from "../index";

/** Runs the GIS tool `slug` through `executeEntry`. */
export function runGis(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ToolOutput[]> {
  const entry = gisTools.find((e) => e.manifest.slug === slug);
  if (!entry) throw new Error(`no GIS tool ${slug}`);
  return executeEntry(entry, inputs, params, { signal });
}

/** One input from bytes or text. */
export function inputOf(name: string, content: Uint8Array | string): ToolInput[] {
  return [{ name, bytes: typeof content === "string" ? new TextEncoder().encode(content) : content }];
}
