import { describe, expect, test } from "bun:test";
import { checkRegistry } from "../registry";
import { checkParams } from "../runtime/params";
import { bimTools } from "./index";

describe("bimTools", () => {
  test("pass the registry's checks; every manifest is complete and its defaults satisfy its schema", () => {
    expect(() => checkRegistry(bimTools)).not.toThrow();
    expect(bimTools.map((t) => t.manifest.slug)).toEqual(["bim.ifc-to-glb", "bim.ifc-properties", "bim.ifc-info"]);
    for (const { manifest } of bimTools) {
      expect(manifest.params.additionalProperties).toBe(false);
      expect(manifest.description.length).toBeGreaterThan(40);
      expect(checkParams(manifest.params, {})).toMatchObject({ ok: true });
      expect(manifest.io.accepts).toEqual(["ifc"]);
    }
    expect(checkParams(bimTools[1].manifest.params, {})).toEqual({ ok: true, params: { format: "json", includeTypeProperties: true } });
  });
});
