import { describe, expect, test } from "bun:test";
import { checkRegistry } from "../registry";
import { checkParams } from "../runtime/params";
import { cadTools } from "./index";

describe("cadTools", () => {
  test("pass the registry's checks; every manifest is complete and its defaults satisfy its schema", () => {
    expect(() => checkRegistry(cadTools)).not.toThrow();
    expect(cadTools.map((t) => t.manifest.slug)).toEqual(["cad.convert", "cad.info"]);
    for (const { manifest } of cadTools) {
      expect(manifest.params.additionalProperties).toBe(false);
      expect(manifest.description.length).toBeGreaterThan(40);
      expect(checkParams(manifest.params, {})).toMatchObject({ ok: true });
      expect(manifest.io.accepts).toEqual(["step", "iges", "brep"]);
    }
    expect(checkParams(cadTools[0].manifest.params, {})).toEqual({ ok: true, params: { format: "glb", linearDeflection: 0.001, angularDeflection: 0.5 } });
  });
});
