/** drawing.to-geojson: one feature per drawn entity, blocks inlined. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem } from "../../runtime/context";
import { readDrawn } from "../common/drawn";
import type { Item } from "../common/flatten";
import type { Vec } from "../common/model";
import type { Params } from "./manifest";

type Position = [number, number];
const position = (p: Vec): Position => [Number(p.x.toPrecision(15)), Number(p.y.toPrecision(15))];

/** A ring closed (first position repeated last), as GeoJSON requires of polygons. */
function ring(run: Vec[]): Position[] {
  const out = run.map(position);
  const [first, last] = [out[0], out.at(-1)!];
  if (first[0] !== last[0] || first[1] !== last[1]) out.push(first);
  return out;
}

function geometry(item: Item) {
  const at = item.point ?? item.text?.at;
  if (at) return { type: "Point", coordinates: position(at) };
  const runs = item.runs.filter((r) => r.length >= 2);
  if (!runs.length) return null;
  if (item.filled || (item.closed && item.entity !== "CIRCLE" && !/POLYLINE|SPLINE/.test(item.entity))) {
    const rings = runs.filter((r) => r.length >= 3).map(ring);
    return rings.length ? { type: "Polygon", coordinates: rings } : null;
  }
  const lines = runs.map((r) => r.map(position));
  return lines.length === 1 ? { type: "LineString", coordinates: lines[0] } : { type: "MultiLineString", coordinates: lines };
}

function properties(item: Item) {
  const text = item.text ? { textHeight: Number(item.text.height.toPrecision(12)), rotation: Number(((item.text.rotation * 180) / Math.PI).toFixed(6)) } : {};
  return { layer: item.layer, entity: item.entity, handle: item.handle ?? null, color: item.color, text: item.text?.text ?? null, block: item.insert?.block ?? null, ...text };
}

/**
 * Like ogr2ogr's default (DXF_MERGE_BLOCK_GEOMETRIES): the geometry one top-level insert draws
 * on one layer is one feature (a GeometryCollection when it has several parts); text stays a
 * feature of its own, since its properties would be lost in a collection.
 */
function features(items: Item[]) {
  const out: { type: "Feature"; properties: Record<string, unknown>; geometry: ReturnType<typeof geometry> & object }[] = [];
  const merged = new Map<string, { type: "GeometryCollection"; geometries: object[] }>();
  for (const item of items) {
    const geom = geometry(item);
    if (!geom) continue;
    if (!item.insert || item.text) {
      out.push({ type: "Feature", properties: properties(item), geometry: geom });
      continue;
    }
    const key = `${item.insert.id}\u0000${item.layer}`;
    const collection = merged.get(key);
    if (collection) {
      collection.geometries.push(geom);
      continue;
    }
    const fresh = { type: "GeometryCollection" as const, geometries: [geom] };
    merged.set(key, fresh);
    out.push({ type: "Feature", properties: { ...properties(item), entity: item.insert.entity, handle: null }, geometry: fresh as never });
  }
  // A collection of one is that geometry.
  for (const f of out) {
    const g = f.geometry as { type: string; geometries?: object[] };
    if (g.type === "GeometryCollection" && g.geometries?.length === 1) f.geometry = g.geometries[0] as never;
  }
  return out;
}

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const { items } = await readDrawn(input, { ...params, background: "#ffffff" }, ctx);
  ctx.onProgress(0.8, "writing GeoJSON");
  const collection = { type: "FeatureCollection", name: stem(input.name), features: features(items) };
  return [output(`${stem(input.name)}.geojson`, "geojson", new TextEncoder().encode(JSON.stringify(collection)))];
};
