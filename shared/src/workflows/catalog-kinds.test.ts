import { describe, expect, test } from "bun:test";
import { catalogParams } from "./catalog-kinds";
import { chainOf, resolverOf, SMALL_KINDS } from "./testing";
import { validateGraph } from "./validate";

describe("catalog kinds", () => {
  test("params get their schema's defaults; unknown properties and non-objects are refused", () => {
    const schema = { type: "object", additionalProperties: false, properties: { level: { type: "integer", default: 6 }, name: { type: "string" } } };
    expect(catalogParams(schema, undefined)).toEqual({ ok: true, params: { level: 6 } });
    expect(catalogParams(schema, { level: 9, name: "x" })).toEqual({ ok: true, params: { level: 9, name: "x" } });
    expect(catalogParams(schema, { colour: 1 })).toMatchObject({ ok: false, issues: [{ path: "/colour" }] });
    expect(catalogParams(schema, [])).toMatchObject({ ok: false, message: "Invalid params: params must be an object" });
  });

  test("validation over a catalog: formats flow, steps are counted, a source is required", async () => {
    const opts = { kinds: SMALL_KINDS, maxSteps: 1, resolveWorkflow: resolverOf({}) };
    const ok = await validateGraph(chainOf(["in", "source.upload"], ["f", "logic.filter", { formats: ["pdf"] }], ["c", "op.pdf.compress"], ["z", "sink.zip"]), opts);
    expect(ok).toEqual({ ok: true, issues: [], steps: 1 });
    const bad = await validateGraph(chainOf(["f", "logic.filter", { formats: ["png"] }], ["c", "op.pdf.compress"], ["d", "op.pdf.compress"]), opts);
    expect(bad.issues.map((i) => i.code)).toEqual(["NO_SOURCE", "TOO_MANY_STEPS", "IO_MISMATCH"]);
  });
});
