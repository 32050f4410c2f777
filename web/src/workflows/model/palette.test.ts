import { describe, expect, it } from "vitest";
import { familyLabel, familyOf, paletteGroups, searchPalette } from "./palette";
import { CATALOG } from "./testing/catalog";

const types = (entries: { type: string }[]) => entries.map((e) => e.type);

describe("paletteGroups", () => {
  const groups = paletteGroups(CATALOG);

  it("groups Triggers, Sources, operations by tool family, Logic, Sinks, in that order", () => {
    expect(groups.map((g) => g.label)).toEqual(["Triggers", "Sources", "PDF", "Point clouds", "CAD", "GIS", "PCB", "BIM", "Media", "Drawings", "Meshes", "Workflows", "Logic", "Sinks"]);
    expect(types(groups[0].entries)).toEqual(["trigger.manual", "trigger.webhook", "trigger.schedule"]);
    expect(types(groups.find((g) => g.label === "Sinks")!.entries)).toEqual(["sink.download", "sink.zip", "sink.rename"]);
    expect(groups.find((g) => g.label === "PDF")!.family).toBe("pdf");
  });

  it("puts every catalog entry in exactly one group", () => {
    expect(groups.flatMap((g) => types(g.entries)).sort()).toEqual(types(CATALOG).sort());
  });

  it("labels families nicely and a new family by its name", () => {
    expect(familyOf("op.pointcloud.decimate")).toBe("pointcloud");
    expect(familyLabel("pointcloud")).toBe("Point clouds");
    expect(familyLabel("office-docs")).toBe("Office docs");
  });

  it("leaves empty groups out", () => {
    expect(paletteGroups(CATALOG.filter((e) => e.category === "sink")).map((g) => g.label)).toEqual(["Sinks"]);
    expect(paletteGroups([])).toEqual([]);
  });
});

describe("searchPalette", () => {
  it("finds by title, words in any order, case aside", () => {
    expect(types(searchPalette(CATALOG, "compress"))).toEqual(["op.pdf.compress"]);
    expect(types(searchPalette(CATALOG, "PDF merge"))).toEqual(["op.pdf.merge"]);
    expect(types(searchPalette(CATALOG, "zip")).at(0)).toBe("sink.zip");
  });

  it("finds by a format taken or given, by id or by name; title matches first", () => {
    const png = types(searchPalette(CATALOG, "png"));
    expect(png[0]).toBe("op.pdf.render-png");
    expect(png).toEqual(expect.arrayContaining(["op.gis.raster-convert", "op.media.thumbnail"]));
    expect(png).not.toContain("logic.merge");
    expect(types(searchPalette(CATALOG, "geopackage"))).toEqual(expect.arrayContaining(["op.gis.convert", "op.gis.info"]));
    expect(types(searchPalette(CATALOG, "laz las"))).toEqual(expect.arrayContaining(["op.pointcloud.laz-to-las", "op.pointcloud.info"]));
  });

  it("lists everything for an empty query and nothing for a query nothing matches", () => {
    expect(searchPalette(CATALOG, "  ")).toEqual(CATALOG);
    expect(searchPalette(CATALOG, "xylophone")).toEqual([]);
  });
});
