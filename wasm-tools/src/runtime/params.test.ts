import { describe, expect, test } from "bun:test";
import { validateParams } from "./params";

describe("validateParams", () => {
  test("applies defaults and leaves the caller's object alone", () => {
    const given = { pages: "1-2" };
    const result = validateParams("pdf.render-png", given);
    expect(result).toEqual({ ok: true, params: { dpi: 96, alpha: false, pages: "1-2" } });
    expect(given).toEqual({ pages: "1-2" });
    expect(validateParams("pdf.compress", undefined)).toEqual({ ok: true, params: { level: 6 } });
  });

  test("lists every bad field in one readable message", () => {
    const result = validateParams("pdf.render-png", { dpi: 1000, pages: "first", colour: "red" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path).sort()).toEqual(["/colour", "/dpi", "/pages"]);
    expect(result.message).toContain("dpi: Expected integer to be less or equal to 300");
    expect(result.message).toContain('pages: Expected a value such as "1-3,5" or "2-" (got "first")');
    expect(result.message).toContain("colour: Unexpected property");
  });

  test("names the allowed values of a choice and rejects wrong types", () => {
    const result = validateParams("pointcloud.convert", { format: "e57", color: "yes" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('format: Expected one of "ply", "xyz", "csv" (got "e57")');
    expect(result.message).toContain("color: Expected boolean");
  });

  test("rejects non-objects and unknown tools", () => {
    expect(validateParams("pdf.compress", [1, 2])).toMatchObject({ ok: false, message: "Invalid params: params must be an object" });
    expect(validateParams("pdf.compress", "level=3")).toMatchObject({ ok: false });
    expect(validateParams("pdf.unknown", {})).toMatchObject({ ok: false, message: 'Unknown tool "pdf.unknown"' });
  });
});
