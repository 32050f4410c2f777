/**
 * Any map file as one GeoJSON FeatureCollection in WGS 84 longitude/latitude, converted on this
 * device by the GIS tools: GeoPackage and KML through gis.convert (one GeoJSON per layer), and
 * GeoJSON in another coordinate system through gis.reproject.
 */
import type { Feature, FeatureCollection, Position } from "geojson";
import { releaseOutput } from "../../../tools/device";
import { outputBlob } from "../../../tools/output-blob";
import { extensionOf } from "../kind";
import { runForView } from "./device-run";

type Bounds = [number, number, number, number];

export async function toLonLat(name: string, blob: Blob, signal: AbortSignal): Promise<FeatureCollection> {
  const geojson = extensionOf(name) === "geojson" || /geo\+json|json/.test(blob.type);
  const converted = geojson ? [] : await runForView("gis.convert", { name, blob }, { to: "geojson" }, signal);
  try {
    const layers = geojson ? [{ name, blob }] : converted.map((o) => ({ name: o.name, blob: outputBlob(o) }));
    const features: Feature[] = [];
    for (const layer of layers) features.push(...(await wgs84(layer.name, layer.blob, signal)).features);
    return { type: "FeatureCollection", features };
  } finally {
    converted.forEach(releaseOutput); // read: the files the worker wrote on disk may go
  }
}

/** GDAL names the CRS of GeoJSON that is not in WGS 84 (RFC 7946 GeoJSON has none). */
async function wgs84(name: string, blob: Blob, signal: AbortSignal): Promise<FeatureCollection> {
  const data = JSON.parse(await blob.text()) as FeatureCollection & { crs?: { properties?: { name?: string } } };
  const crs = data.crs?.properties?.name ?? "";
  if (!crs || /CRS84|EPSG:{1,2}4326$/i.test(crs)) return data;
  const [out] = await runForView("gis.reproject", { name, blob }, { to: 4326 }, signal);
  try {
    return JSON.parse(await outputBlob(out!).text()) as FeatureCollection;
  } finally {
    releaseOutput(out!);
  }
}

/** The west, south, east, north extent of every coordinate, or null when there is none. */
export function boundsOf(data: FeatureCollection): Bounds | null {
  const b: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (typeof (c as Position)[0] === "number") {
      const [x, y] = c as Position;
      b[0] = Math.min(b[0], x!);
      b[1] = Math.min(b[1], y!);
      b[2] = Math.max(b[2], x!);
      b[3] = Math.max(b[3], y!);
    } else for (const inner of c as unknown[]) visit(inner);
  };
  const geometries = data.features.flatMap((f) => (f.geometry?.type === "GeometryCollection" ? f.geometry.geometries : f.geometry ? [f.geometry] : []));
  for (const g of geometries) if ("coordinates" in g) visit(g.coordinates);
  return Number.isFinite(b[0]) ? b : null;
}
