/**
 * The web editor's unit tests run on a copy of the catalog (web/src/workflows/model/testing/
 * catalog.json) and judge formats from catalog entries alone; this holds both to the node kinds.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { pickedFormats } from "@vektor/shared/workflows/formats";
import { checkParams } from "@vektor/wasm-tools";
import { CATALOG_FIXTURE, catalogFixtureText } from "../../../../scripts/catalog-fixture";
import { catalog, NODE_KINDS } from "./index";

/** Params worth asking each kind about: none, each value of each choice param, and format lists. */
function sampleParams(schema: { properties?: Record<string, { anyOf?: { const?: unknown }[]; enum?: unknown[] }> }): Record<string, unknown>[] {
  const samples: Record<string, unknown>[] = [{}, { formats: ["pdf"] }, { formats: ["png", "pdf"] }, { formats: "pdf" }];
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const values = prop.enum ?? prop.anyOf?.map((o) => o.const) ?? [];
    for (const value of values) samples.push({ [key]: value });
    samples.push({ [key]: "pdf" }, { [key]: "zip" });
  }
  return samples;
}

describe("the web editor's view of the catalog", () => {
  test("the fixture is the current catalog (regenerate it with bun scripts/catalog-fixture.ts)", () => {
    expect(JSON.parse(readFileSync(CATALOG_FIXTURE, "utf8"))).toEqual(JSON.parse(catalogFixtureText()));
  });

  test("formats picked by params, read from catalog entries, are what each kind's producesFor says", () => {
    const entries = new Map(catalog().map((e) => [e.type, e]));
    let compared = 0;
    let picking = 0;
    for (const kind of NODE_KINDS) {
      const entry = entries.get(kind.description.type)!;
      for (const sample of sampleParams(kind.description.params as never)) {
        // The server asks producesFor only about params its schema accepts, defaults applied.
        const checked = checkParams(kind.description.params, sample);
        if (!checked.ok) continue;
        const params = checked.params;
        expect({ type: entry.type, params, picked: pickedFormats(entry, params) }).toEqual({ type: entry.type, params, picked: kind.producesFor?.(params) });
        compared++;
        if (kind.producesFor?.(params)) picking++;
      }
    }
    expect(compared).toBeGreaterThan(NODE_KINDS.length * 2);
    expect(picking).toBeGreaterThan(5);
  });
});
