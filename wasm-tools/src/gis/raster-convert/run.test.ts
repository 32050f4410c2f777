import { describe, expect, test } from "bun:test";
import { expectToolError } from "../../testing/run-tool";
import { nativeRaster, runNative, wktEpsg } from "../testing/cli";
import { featureCollection, makeGeoTiff } from "../testing/fixtures";
import { inputOf, runGis } from "../testing/run";
import { chooseBands } from "./run";

const convert = (bytes: Uint8Array, params: Record<string, unknown>, name = "grid.tif") => runGis("gis.raster-convert", inputOf(name, bytes), params);
const checksums = (name: string, bytes: Uint8Array) => (nativeRaster(name, bytes, ["-checksum"]).bands as { checksum?: number }[]).map((b) => b.checksum);
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("gis.raster-convert", () => {
  test("8-bit GeoTIFF to PNG: lossless, same size and bands", async () => {
    const tif = await makeGeoTiff({ width: 64, height: 48 });
    const [out] = await convert(tif, { to: "png" });
    expect([out.name, out.mime]).toEqual(["grid.png", "image/png"]);
    expect([...out.bytes.subarray(0, 8)]).toEqual(PNG);
    const info = nativeRaster(out.name, out.bytes);
    expect([info.driverShortName, info.size, info.bands.map((b) => b.type)]).toEqual(["PNG", [64, 48], ["Byte"]]);
    expect(checksums(out.name, out.bytes)).toEqual(checksums("grid.tif", tif));
  }, 60_000);

  test("RGB GeoTIFF to JPEG: three 8-bit bands, quality changes the size", async () => {
    const tif = await makeGeoTiff({ width: 128, height: 96, bands: 3, value: (c, r) => (c * 13 + r * 29 + ((c * r) % 17)) % 256 });
    const [best] = await convert(tif, { to: "jpeg", quality: 95 });
    const [small] = await convert(tif, { to: "jpeg", quality: 20 });
    expect([best.name, best.mime]).toEqual(["grid.jpg", "image/jpeg"]);
    expect([...best.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const info = nativeRaster(best.name, best.bytes);
    expect([info.driverShortName, info.size, info.bands.length]).toEqual(["JPEG", [128, 96], 3]);
    expect(small.bytes.length).toBeLessThan(best.bytes.length * 0.7);
  }, 60_000);

  test("16-bit and floating-point data are stretched to 8-bit where the target needs it", async () => {
    const u16 = await makeGeoTiff({ width: 50, height: 40, type: "UInt16", value: (c, r) => 1000 + c * 400 + r * 10 });
    const [jpeg] = await convert(u16, { to: "jpeg" });
    const stretched = nativeRaster(jpeg.name, jpeg.bytes, ["-stats"]).bands[0];
    expect(stretched.type).toBe("Byte");
    expect(stretched.minimum).toBeLessThan(5);
    expect(stretched.maximum).toBeGreaterThan(250);

    const [png16] = await convert(u16, { to: "png" });
    expect(nativeRaster(png16.name, png16.bytes).bands[0].type).toBe("UInt16"); // PNG holds 16-bit as is
    expect(checksums(png16.name, png16.bytes)).toEqual(checksums("u16.tif", u16));
    const [png8] = await convert(u16, { to: "png", scale: "always" });
    expect(nativeRaster(png8.name, png8.bytes).bands[0].type).toBe("Byte");

    const f32 = await makeGeoTiff({ width: 30, height: 20, type: "Float32", value: (c, r) => c * 0.25 - r * 0.5 });
    const [fromFloat] = await convert(f32, { to: "png" });
    const band = nativeRaster(fromFloat.name, fromFloat.bytes, ["-stats"]).bands[0];
    expect([band.type, band.minimum, band.maximum]).toEqual(["Byte", 0, 255]);
    await expectToolError(convert(f32, { to: "png", scale: "never" }), "PARAMS_INVALID", /PNG cannot hold Float32/);
  }, 60_000);

  test("GeoTIFF to COG: COG layout, DEFLATE, overviews, georeferencing kept", async () => {
    const tif = await makeGeoTiff({ width: 700, height: 560, origin: [500000, 5500000], cell: 10, epsg: 25832, value: (c, r) => (c ^ r) % 256 });
    const [out] = await convert(tif, { to: "cog" });
    expect([out.name, out.mime]).toEqual(["grid-cog.tif", "image/tiff"]);
    const info = nativeRaster(out.name, out.bytes);
    const source = nativeRaster("grid.tif", tif);
    expect(info.metadata?.IMAGE_STRUCTURE).toMatchObject({ LAYOUT: "COG", COMPRESSION: "DEFLATE" });
    expect(wktEpsg(info.coordinateSystem?.wkt)).toBe(25832);
    expect(info.geoTransform).toEqual(source.geoTransform);
    expect(info.size).toEqual([700, 560]);
    expect(info.bands[0].overviews?.length).toBeGreaterThan(0);
    expect(checksums(out.name, out.bytes)).toEqual(checksums("grid.tif", tif));
    expect(runNative(["gdalinfo"], "grid-cog.tif", out.bytes)).toContain("LAYOUT=COG");
  }, 60_000);

  test("bands: picked and reordered; JPEG drops an alpha band it cannot store; impossible counts are refused", async () => {
    const rgba = await makeGeoTiff({ width: 16, height: 16, bands: 4, colorInterp: "red,green,blue,alpha" });
    const [jpeg] = await convert(rgba, { to: "jpeg" });
    expect(nativeRaster(jpeg.name, jpeg.bytes).bands.length).toBe(3);
    const [one] = await convert(rgba, { to: "png", bands: [2] });
    expect(nativeRaster(one.name, one.bytes).bands.length).toBe(1);
    const [png] = await convert(rgba, { to: "png" });
    expect(nativeRaster(png.name, png.bytes).bands.map((b) => b.colorInterpretation)).toEqual(["Red", "Green", "Blue", "Alpha"]);
    await expectToolError(convert(rgba, { to: "png", bands: [5] }), "PARAMS_INVALID", /has 4 bands; there is no band 5/);
    await expectToolError(convert(rgba, { to: "jpeg", bands: [1, 2] }), "PARAMS_INVALID", /JPEG holds 1 or 3 bands/);
    const two = await makeGeoTiff({ width: 8, height: 8, bands: 2 });
    await expectToolError(convert(two, { to: "jpeg" }), "PARAMS_INVALID", /bands/);
    expect(chooseBands({ bands: [1, 2, 3, 4].map((band) => ({ band, dataType: "Byte", colorInterpretation: band === 4 ? "Alpha" : "Red", noData: null, block: null })) } as never, "jpeg", undefined, "x")).toEqual([1, 2, 3]);
  }, 60_000);

  test("outputs are the same bytes on every run", async () => {
    const tif = await makeGeoTiff({ width: 40, height: 30, type: "UInt16", value: (c, r) => c * r });
    for (const to of ["png", "jpeg", "cog"]) {
      const [a] = await convert(tif, { to });
      const [b] = await convert(tif, { to });
      expect({ to, same: Bun.hash(a.bytes) === Bun.hash(b.bytes) }).toEqual({ to, same: true });
    }
  }, 60_000);

  test("rejects vector data, other images, truncated TIFFs and bad params", async () => {
    await expectToolError(convert(featureCollection(), { to: "png" }, "sample.geojson"), "INPUT_INVALID", /GeoJSON, which gis\.raster-convert does not take/);
    await expectToolError(convert(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), { to: "png" }, "photo.tif"), "INPUT_INVALID", /is a PNG image/);
    const tif = await makeGeoTiff({ width: 200, height: 100 });
    await expectToolError(convert(tif.slice(0, Math.floor(tif.length * 0.7)), { to: "png" }), "INPUT_INVALID", /"grid\.tif" is truncated: its image data runs to byte \d+, but the file has \d+ bytes/);
    await expectToolError(convert(tif.slice(0, 6), { to: "png" }), "INPUT_INVALID", /truncated/);
    await expectToolError(convert(tif, { to: "webp" }), "PARAMS_INVALID", /to/);
    await expectToolError(convert(tif, { to: "jpeg", quality: 0 }), "PARAMS_INVALID", /quality/);
    await expectToolError(convert(tif, { to: "png", bands: [] }), "PARAMS_INVALID", /bands/);
  }, 60_000);
});
