/**
 * Test-only helpers for the BIM family: the IFC fixtures in fixtures/bim, and runs through
 * `executeEntry` (params checked, empty inputs refused) exactly as hosts run tools.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { bimTools } from "./index";

/** The repository's fixtures/bim folder. */
export const BIM_FIXTURES = fileURLToPath(new URL("../../../fixtures/bim/", import.meta.url));

const cache = new Map<string, Uint8Array>();

/** An IFC fixture as a tool input (read once per test process). */
export function ifcFixture(file: string): ToolInput {
  let bytes = cache.get(file);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(BIM_FIXTURES + file));
    cache.set(file, bytes);
  }
  return { name: file, bytes };
}

/** Runs the BIM tool `slug` the way hosts do. */
export function runBim(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ToolOutput[]> {
  const entry = bimTools.find((t) => t.manifest.slug === slug);
  if (!entry) throw new Error(`no BIM tool ${slug}`);
  return executeEntry(entry, inputs, params, { signal });
}
