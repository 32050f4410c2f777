/**
 * Debian's GDAL command-line tools (package gdal-bin) as the independent reader of what the GIS
 * tools write: a native build that shares no code path with the WASM one beyond GDAL's sources.
 * A missing gdal-bin fails the test with the command to install it; it never skips.
 */
import { join } from "node:path";
import { withTempFile } from "../../testing/fixtures";
import { runCli } from "../../testing/cli";

/** Throws (failing the test) unless ogrinfo, ogr2ogr, gdalinfo and gdaltransform are installed. */
export function requireGdalBin(): void {
  const missing = ["ogrinfo", "ogr2ogr", "gdalinfo", "gdaltransform"].filter((name) => Bun.which(name) === null);
  if (missing.length) {
    throw new Error(`${missing.join(", ")} not found: the GIS tests check their outputs with Debian's GDAL tools. Install them: apt-get install -y gdal-bin`);
  }
}

/** Writes `bytes` as `name` in a fresh temp folder, calls `use(path)`, removes the folder. */
export const withFile = withTempFile;

function run(cmd: string[]): string {
  requireGdalBin();
  const r = runCli(cmd);
  if (r.code !== 0) throw new Error(`${cmd.join(" ")} failed (${r.code}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** The dataset path native GDAL opens for a file (a shapefile ZIP through /vsizip/). */
function gdalPath(path: string): string {
  return path.endsWith(".zip") ? `/vsizip/${path}` : path;
}

/** Runs a native GDAL command on `bytes` saved as `name` (the path goes last) and returns its stdout. */
export function runNative(cmd: string[], name: string, bytes: Uint8Array): string {
  return withFile(name, bytes, (path) => run([...cmd, gdalPath(path)]));
}

/** A layer as native GDAL reads it. */
export interface NativeLayer {
  name: string;
  /** The layer's geometry type as ogrinfo names it (`Point`, `Unknown (any)`, `3D Line String`...). */
  geometry: string;
  featureCount: number;
  /** EPSG code of the layer's CRS when ogrinfo's WKT ends with one, null without a CRS. */
  epsg: number | null;
  hasCrs: boolean;
  fields: Record<string, string>;
  extent: [number, number, number, number] | null;
  /** The features, exported by native ogr2ogr as GeoJSON (coordinates as stored, no reprojection). */
  features: { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } | null }[];
}

/** Reads every layer of a vector file (bytes named `name`) with native ogrinfo and ogr2ogr. */
export function nativeVector(name: string, bytes: Uint8Array, openOptions: string[] = []): NativeLayer[] {
  return withFile(name, bytes, (path) => {
    const oo = openOptions.flatMap((o) => ["-oo", o]);
    const list = run(["ogrinfo", "-ro", "-q", ...oo, gdalPath(path)]);
    const names = [...list.matchAll(/^\d+: (.+?)(?: \([^()]*\))?$/gm)].map((m) => m[1]);
    return names.map((layer) => {
      const summary = parseSummary(run(["ogrinfo", "-ro", "-so", ...oo, gdalPath(path), layer]));
      const geojson = JSON.parse(run(["ogr2ogr", "-f", "GeoJSON", "/vsistdout/", ...oo, gdalPath(path), layer])) as { features: NativeLayer["features"] };
      return { name: layer, ...summary, features: geojson.features };
    });
  });
}

/** The parts of `ogrinfo -so <file> <layer>` (GDAL 3.6's text report) the tests look at. */
function parseSummary(text: string): Omit<NativeLayer, "name" | "features"> {
  const lines = text.split("\n");
  const value = (label: string) => lines.find((l) => l.startsWith(`${label}: `))?.slice(label.length + 2) ?? "";
  const at = lines.indexOf("Layer SRS WKT:");
  let end = at + 1;
  while (end + 1 < lines.length && /^\s/.test(lines[end + 1])) end++;
  const srs = at >= 0 ? lines.slice(at + 1, end + 1).join("\n") : "";
  const ids = [...srs.matchAll(/ID\["EPSG",(\d+)\]\]$/gm)];
  const fields: Record<string, string> = {};
  for (const line of lines.slice(end + 1)) {
    const m = /^([^:]+): (\w+) \(/.exec(line);
    if (m && !line.startsWith("Data axis")) fields[m[1]] = m[2];
  }
  const extent = /^\(([-\d.e+]+), ([-\d.e+]+)\) - \(([-\d.e+]+), ([-\d.e+]+)\)$/.exec(value("Extent"));
  return {
    geometry: value("Geometry"),
    featureCount: Number(value("Feature Count")),
    epsg: ids.length ? Number(ids[ids.length - 1][1]) : null,
    hasCrs: srs.trim() !== "" && srs.trim() !== "(unknown)",
    fields,
    extent: extent ? [Number(extent[1]), Number(extent[2]), Number(extent[3]), Number(extent[4])] : null,
  };
}

/** Native gdalinfo -json of a raster (bytes named `name`); `stats` adds -stats. */
export function nativeRaster(name: string, bytes: Uint8Array, extra: string[] = []): GdalInfo {
  return withFile(name, bytes, (path) => JSON.parse(run(["gdalinfo", "-json", ...extra, path])) as GdalInfo);
}

/** The parts of gdalinfo -json the tests look at. */
export interface GdalInfo {
  driverShortName: string;
  size: [number, number];
  geoTransform?: number[];
  coordinateSystem?: { wkt: string };
  metadata?: Record<string, Record<string, string>>;
  bands: { band: number; type: string; colorInterpretation?: string; minimum?: number; maximum?: number; overviews?: unknown[] }[];
}

/** Native gdaltransform (lon/lat order for geographic CRSs, as GDAL's tools use): the reference for reprojected coordinates. */
export function nativeTransform(points: [number, number][], from: number, to: number): [number, number][] {
  requireGdalBin();
  const input = new TextEncoder().encode(points.map(([x, y]) => `${x} ${y}`).join("\n") + "\n");
  const r = Bun.spawnSync(["gdaltransform", "-s_srs", `EPSG:${from}`, "-t_srs", `EPSG:${to}`, "-output_xy"], { stdin: input, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`gdaltransform failed: ${r.stderr.toString()}`);
  return r.stdout
    .toString()
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
}

/** EPSG code at the end of a WKT (its outermost ID), or null. */
export function wktEpsg(wkt: string | undefined): number | null {
  const m = /ID\["EPSG",(\d+)\]\]\s*$/.exec(wkt ?? "");
  return m ? Number(m[1]) : null;
}
