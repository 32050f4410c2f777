import { describe, expect, test } from "bun:test";
import { unzipSync, zipSync } from "fflate";
import { expectToolError } from "../testing/run-tool";
import { unzipShapefiles, zipFiles } from "./archive";
import { csvGeometryStyle, safeName, sniff } from "./formats";
import { loadGdal } from "./init";
import { tiffDataEnd } from "./tiff";
import { makeGeoTiff } from "./testing/fixtures";
import { assertCompleteSqlite } from "./vector";

const text = (s: string) => new TextEncoder().encode(s);
const of = (name: string, bytes: Uint8Array | string) => ({ name, bytes: typeof bytes === "string" ? text(bytes) : bytes });
const what = (name: string, bytes: Uint8Array | string) => {
  const found = sniff(of(name, bytes));
  return "format" in found ? found.format : `not: ${found.not}`;
};

describe("format detection", () => {
  test("decides by content; the name only breaks ties between text formats", () => {
    expect(what("x.bin", '  \n{"type":"FeatureCollection"}')).toBe("geojson");
    expect(what("x.geojson", "\uFEFF[]")).toBe("geojson");
    expect(what("x.zip", '<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">')).toBe("kml");
    expect(what("x", "  0\nSECTION\n  2\nHEADER\n")).toBe("dxf");
    expect(what("x", "999\ncomment\n  0\nSECTION\n")).toBe("dxf");
    expect(what("x.dxf", "AutoCAD Binary DXF\r\n\x1a\x00")).toBe("dxf");
    expect(what("points.txt", "name lon lat\n")).toBe("csv");
    expect(what("anything", "a;b;c\n1;2;3\n")).toBe("csv");
    expect(what("x.gpkg", new Uint8Array([...text("SQLite format 3"), 0, 16, 0]))).toBe("gpkg");
    expect(what("x.shp", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0]))).toBe("shapefile-zip");
    expect(what("x", new Uint8Array([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x01]))).toBe("flatgeobuf");
    expect(what("x", new Uint8Array([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]))).toBe("geotiff");
    expect(what("x", new Uint8Array([0x49, 0x49, 0x2b, 0, 8, 0, 0, 0]))).toBe("geotiff");
  });

  test("names what a wrong file is", () => {
    expect(what("a.geojson", "%PDF-1.7")).toBe("not: a PDF document");
    expect(what("a.tif", new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("not: a JPEG image");
    expect(what("a.kml", "<svg xmlns='http://www.w3.org/2000/svg'>")).toBe("not: an SVG image");
    expect(what("a.kml", "<!DOCTYPE html><html>")).toBe("not: an HTML page");
    expect(what("a.kml", "<gpx version='1.1'>")).toBe("not: an XML document that is not KML");
    expect(what("a.geojson", "hello world")).toBe("not: a text file in no format this tool reads");
    expect(what("a.geojson", new Uint8Array([1, 2, 3, 4, 5]))).toBe("not: a binary file of an unknown kind");
  });

  test("CSV geometry style and safe names", () => {
    expect(csvGeometryStyle(text("id,WKT,label\n"))).toBe("wkt");
    expect(csvGeometryStyle(text('"name";"the_geom"\n'))).toBe("wkt");
    expect(csvGeometryStyle(text("name,lon,lat\n"))).toBe("xy");
    expect(safeName("My Roads (v2)")).toBe("My_Roads_v2_");
    expect(safeName("../../etc/passwd")).toBe("etc_passwd");
    expect(safeName("...")).toBe("data");
  });
});

describe("shapefile archives", () => {
  const parts = { "roads.shp": text("shp"), "roads.dbf": text("dbf"), "roads.prj": text("prj") };

  test("keeps shapefile parts, flattens folders, ignores the rest", () => {
    const zip = zipSync({ "data/roads.shp": text("shp"), "data/roads.dbf": text("dbf"), "README.txt": text("hi"), "__MACOSX/data/._roads.shp": text("x") });
    expect([...unzipShapefiles(of("r.zip", zip)).keys()].sort()).toEqual(["roads.dbf", "roads.shp"]);
  });

  test("refuses archives without a .shp, with clashing names, or broken", async () => {
    const fail = (bytes: Uint8Array) => Promise.resolve().then(() => unzipShapefiles(of("r.zip", bytes)));
    await expectToolError(fail(zipSync({ "a.txt": text("x") })), "INPUT_INVALID", /without a shapefile/);
    await expectToolError(fail(zipSync({ "a/roads.shp": text("1"), "b/roads.shp": text("2") })), "INPUT_UNSUPPORTED", /two files named "roads\.shp"/);
    const zip = zipFiles(new Map(Object.entries(parts)));
    await expectToolError(fail(zip.slice(0, zip.length - 10)), "INPUT_INVALID", /not a readable ZIP/);
  });

  test("zips deterministically, sorted, with fixed timestamps", () => {
    const a = zipFiles(new Map(Object.entries(parts)));
    const b = zipFiles(new Map(Object.entries(parts).reverse()));
    expect(Bun.hash(a)).toBe(Bun.hash(b));
    expect(Object.keys(unzipSync(a))).toEqual(["roads.dbf", "roads.prj", "roads.shp"]);
    const view = new DataView(a.buffer, a.byteOffset);
    const dosDate = view.getUint16(12, true);
    expect([(dosDate >> 9) + 1980, (dosDate >> 5) & 15, dosDate & 31]).toEqual([2000, 1, 1]);
  });
});

describe("truncation checks", () => {
  test("SQLite: the header's page count against the file length", async () => {
    const header = new Uint8Array(4096 * 3);
    header.set(text("SQLite format 3\0"));
    const view = new DataView(header.buffer);
    view.setUint16(16, 4096);
    view.setUint32(24, 7);
    view.setUint32(92, 7);
    view.setUint32(28, 3);
    expect(() => assertCompleteSqlite(of("ok.gpkg", header))).not.toThrow();
    await expectToolError(Promise.resolve().then(() => assertCompleteSqlite(of("cut.gpkg", header.slice(0, 9000)))), "INPUT_INVALID", /header says 12288 bytes, the file has 9000/);
    await expectToolError(Promise.resolve().then(() => assertCompleteSqlite(of("tiny.gpkg", header.slice(0, 50)))), "INPUT_INVALID", /ends inside the GeoPackage/);
  });

  test("TIFF: strips, tiles, BigTIFF and overview directories all end inside the file", async () => {
    const striped = await makeGeoTiff({ width: 300, height: 200 });
    const gdal = await loadGdal();
    const variants = await gdal.operation((op) => {
      const source = op.openDataset(op.write("s.tif", striped), { kind: "raster" });
      const make = (name: string, args: string[]) => {
        op.translate(`${op.dir}/${name}`, source, args);
        return op.read(`${op.dir}/${name}`);
      };
      return {
        tiled: make("t.tif", ["-of", "GTiff", "-co", "TILED=YES", "-co", "BLOCKXSIZE=64", "-co", "BLOCKYSIZE=64"]),
        big: make("b.tif", ["-of", "GTiff", "-co", "BIGTIFF=YES", "-co", "COMPRESS=DEFLATE"]),
        cog: make("c.tif", ["-of", "COG", "-co", "BLOCKSIZE=128", "-co", "OVERVIEWS=FORCE_USE_EXISTING", "-co", "OVERVIEW_COUNT=2"]),
      };
    });
    for (const [name, bytes] of Object.entries({ striped, ...variants })) {
      const full = tiffDataEnd(bytes);
      expect({ name, full }).toEqual({ name, full: { end: expect.any(Number) } });
      const end = (full as { end: number }).end;
      expect(end).toBeGreaterThan(bytes.length * 0.5);
      expect(end).toBeLessThanOrEqual(bytes.length);
      const cut = tiffDataEnd(bytes.slice(0, end - 1));
      expect("broken" in cut || ("end" in cut && cut.end > end - 1)).toBe(true);
    }
    expect(tiffDataEnd(striped.slice(0, 6))).toEqual({ broken: expect.stringContaining("image directory") });
  }, 60_000);
});
