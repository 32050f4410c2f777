/**
 * Coordinate reference systems: checking an EPSG code before any work starts, and reading the
 * EPSG code (when there is one) out of what gdalinfo/ogrinfo report.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import type { Operation } from "./engine";

/** How the tools describe a CRS. */
export interface CrsSummary {
  /** The EPSG code, when the CRS is (or is identified as) one. */
  epsg: number | null;
  name: string | null;
  wkt: string;
}

/** The `coordinateSystem` object gdalinfo and ogrinfo print. */
export interface InfoCrs {
  wkt?: string;
  projjson?: { name?: string; id?: { authority?: string; code?: number | string } };
}

/**
 * Throws PARAMS_INVALID unless `code` is a horizontal CRS (geographic, projected, or compound
 * with one) in the EPSG database GDAL carries: a vertical, geocentric or engineering CRS has no
 * meaning as a map's x/y. GDAL writes WKT1 where it can and WKT2 for 3D CRSs, hence both names.
 */
export function assertKnownEpsg(op: Operation, code: number, param: string): void {
  const wkt = op.epsgWkt(code);
  if (wkt === null) {
    throw new ToolError("PARAMS_INVALID", `${param}: EPSG:${code} is not a coordinate reference system in the EPSG database (check the code, e.g. 4326 for WGS 84, 3857 for Web Mercator)`);
  }
  const kind = /^([A-Z_]+)\[/.exec(wkt)?.[1] ?? "";
  if (!["GEOGCS", "PROJCS", "COMPD_CS", "GEOGCRS", "PROJCRS", "COMPOUNDCRS"].includes(kind)) {
    const what = { VERT_CS: "a vertical (height) CRS", GEOCCS: "a geocentric (x/y/z) CRS", LOCAL_CS: "a local engineering CRS" }[kind] ?? "not a horizontal CRS";
    const name = /^[A-Z_]+\["([^"]*)"/.exec(wkt)?.[1];
    throw new ToolError("PARAMS_INVALID", `${param}: EPSG:${code}${name ? ` (${name})` : ""} is ${what}; give a geographic or projected CRS`);
  }
}

/** A CRS summary from gdalinfo/ogrinfo JSON, or null when the data has none. */
export function summariseCrs(crs: InfoCrs | undefined | null): CrsSummary | null {
  if (!crs?.wkt) return null;
  const id = crs.projjson?.id;
  let epsg: number | null = null;
  if (id && String(id.authority).toUpperCase() === "EPSG" && Number.isInteger(Number(id.code))) epsg = Number(id.code);
  else {
    // WKT2: the outermost object's ID is the last thing before its closing bracket.
    const tail = /ID\["EPSG",(\d+)\]\]\s*$/.exec(crs.wkt) ?? /AUTHORITY\["EPSG","(\d+)"\]\]\s*$/.exec(crs.wkt);
    if (tail) epsg = Number(tail[1]);
  }
  const name = crs.projjson?.name ?? /^[A-Z]+\["([^"]*)"/.exec(crs.wkt)?.[1] ?? null;
  return { epsg, name, wkt: crs.wkt };
}

/** GDAL's "cannot transform" failures, which mean the two CRSs have no usable operation between them. */
export function isTransformFailure(message: string): boolean {
  return /coordinate operation|transformation|Failed to reproject|Cannot find|PROJ:/i.test(message);
}
