/**
 * The params form's model on the real tools' params schemas (as JSON, the way the page gets
 * them): which control each param gets, what it starts at, and what the controls read back as.
 */
import { listManifests } from "@vektor/wasm-tools";
import { describe, expect, test } from "vitest";
import { fieldsOf, fieldValue, humanize, initialValue, readParams, type FieldSpec, type JsonSchema } from "./params-form";

const schemaOf = (slug: string) => JSON.parse(JSON.stringify(listManifests().find((m) => m.slug === slug)!.params)) as JsonSchema;
const fieldsFor = (slug: string) => fieldsOf(schemaOf(slug));
const field = (fields: FieldSpec[], key: string) => fields.find((f) => f.key === key)!;

describe("fieldsOf", () => {
  test("each param's control: integer, boolean, choice, JSON, text; required or optional", () => {
    const render = fieldsFor("pdf.render-png");
    expect(field(render, "dpi")).toMatchObject({ kind: "integer", label: "DPI", optional: false });
    expect(field(render, "alpha")).toMatchObject({ kind: "boolean", label: "Alpha" });
    const raster = fieldsFor("gis.raster-convert");
    expect(field(raster, "to")).toMatchObject({ kind: "choice", choices: ["png", "jpeg", "cog"] });
    expect(field(raster, "bands")).toMatchObject({ kind: "json", optional: true });
    const metadata = fieldsFor("pdf.metadata");
    expect(field(metadata, "title")).toMatchObject({ kind: "string", optional: true });
  });

  test("in the schema's order", () => {
    expect(fieldsFor("gis.raster-convert").map((f) => f.key)).toEqual(Object.keys(schemaOf("gis.raster-convert").properties!));
  });
});

describe("humanize", () => {
  test("camel case and separators to words, acronyms in capitals", () => {
    expect(humanize("linearDeflection")).toBe("Linear deflection");
    expect(humanize("dpi")).toBe("DPI");
    expect(humanize("source_crs")).toBe("Source CRS");
    expect(humanize("max-points")).toBe("Max points");
  });
});

describe("initialValue and fieldValue", () => {
  test("controls start at the schema's defaults", () => {
    const render = fieldsFor("pdf.render-png");
    expect(initialValue(field(render, "dpi"))).toBe("96");
    expect(initialValue(field(render, "alpha"))).toBe(false);
    // A choice holds the index of its literal: degrees 90 is the first of 90, 180, 270.
    expect(initialValue(field(fieldsFor("pdf.rotate"), "degrees"))).toBe("0");
    expect(initialValue(field(fieldsFor("gis.raster-convert"), "bands"))).toBe("");
  });

  test("a saved value shows as its control's value; an unknown choice falls back to the default", () => {
    const rotate = field(fieldsFor("pdf.rotate"), "degrees");
    expect(fieldValue(rotate, 270)).toBe("2");
    expect(fieldValue(rotate, 45)).toBe("0");
    expect(fieldValue(field(fieldsFor("gis.raster-convert"), "bands"), [3, 2, 1])).toBe("[3,2,1]");
    expect(fieldValue(field(fieldsFor("pdf.render-png"), "alpha"), true)).toBe(true);
    expect(fieldValue(field(fieldsFor("pdf.render-png"), "dpi"), undefined)).toBe("96");
  });
});

describe("readParams", () => {
  test("untouched controls read as the defaults; optional ones left empty are left out", () => {
    const raster = fieldsFor("gis.raster-convert");
    const read = readParams(raster, {});
    expect(read).toEqual({ ok: true, params: { to: "png", quality: 85, scale: "auto" } });
  });

  test("typed values: numbers, choices by index, booleans, JSON", () => {
    const raster = fieldsFor("gis.raster-convert");
    const read = readParams(raster, { quality: "40", to: "1", bands: "[3, 2, 1]" });
    expect(read.ok && read.params).toMatchObject({ quality: 40, to: "jpeg", bands: [3, 2, 1] });
    expect(readParams(fieldsFor("pdf.render-png"), { alpha: true })).toMatchObject({ ok: true, params: { alpha: true, dpi: 96 } });
  });

  test("the first problem, named by the control's label", () => {
    const render = fieldsFor("pdf.render-png");
    expect(readParams(render, { dpi: "" })).toEqual({ ok: false, message: "DPI is required" });
    expect(readParams(render, { dpi: "96.5" })).toEqual({ ok: false, message: "DPI must be a whole number" });
    expect(readParams(render, { dpi: "lots" })).toEqual({ ok: false, message: "DPI must be a whole number" });
    expect(readParams(fieldsFor("gis.raster-convert"), { bands: "[3, 2" })).toEqual({ ok: false, message: "Bands is not valid JSON" });
  });
});
