/**
 * Test-only helpers for the CAD family: fixtures from occt-import-js's own test files, and runs
 * through `executeEntry` (params checked, empty inputs refused) exactly as hosts run tools.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { cadTools } from "./index";

/** occt-import-js's test/testfiles folder (the package is a dependency, so it is always installed). */
export const OCCT_TESTFILES = fileURLToPath(new URL("../test/testfiles/", import.meta.resolve("occt-import-js")));

/** A file under occt-import-js's test/testfiles as a tool input. */
export function cadFixture(path: string): ToolInput {
  return { name: path.split("/").pop() ?? path, bytes: new Uint8Array(readFileSync(OCCT_TESTFILES + path)) };
}

/** Runs the CAD tool `slug` the way hosts do. */
export function runCad(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ToolOutput[]> {
  const entry = cadTools.find((t) => t.manifest.slug === slug);
  if (!entry) throw new Error(`no CAD tool ${slug}`);
  return executeEntry(entry, inputs, params, { signal });
}

/** Bytes of a text. */
export function textBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
