/** gis.info from ogrinfo -json (plus a scan for the geometry types present) or gdalinfo -json. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { jsonBytes, output, stem } from "../../runtime/context";
import type { Operation } from "../engine";
import { detectFormat, VECTOR_FORMATS, type GisFormat } from "../formats";
import { withGdal } from "../init";
import { openRaster } from "../raster";
import { openVector, presentGeometryTypes } from "../vector";
import type { Params } from "./manifest";

const PURPOSE = "gis.info";
const ACCEPTED: readonly GisFormat[] = [...VECTOR_FORMATS, "geotiff"];

/** OGR SQL's geometry names -> the spelling of GeoJSON and the OGC. */
const GEOMETRY_NAMES: Record<string, string> = {
  POINT: "Point",
  LINESTRING: "LineString",
  POLYGON: "Polygon",
  MULTIPOINT: "MultiPoint",
  MULTILINESTRING: "MultiLineString",
  MULTIPOLYGON: "MultiPolygon",
  GEOMETRYCOLLECTION: "GeometryCollection",
  CIRCULARSTRING: "CircularString",
  COMPOUNDCURVE: "CompoundCurve",
  CURVEPOLYGON: "CurvePolygon",
  MULTICURVE: "MultiCurve",
  MULTISURFACE: "MultiSurface",
  POLYHEDRALSURFACE: "PolyhedralSurface",
  TIN: "Tin",
  TRIANGLE: "Triangle",
};

export const run: ToolRun<Params> = async ([input], _params, ctx) =>
  withGdal(ctx, (op) => {
    const format = detectFormat(input, ACCEPTED, PURPOSE);
    const report = format === "geotiff" ? rasterReport(op, input) : vectorReport(op, input, format);
    return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
  });

function vectorReport(op: Operation, input: Parameters<typeof openVector>[1], format: Exclude<GisFormat, "geotiff">) {
  const opened = openVector(op, input, [format], PURPOSE, true);
  const layers = opened.layers.map((layer) => {
    const present = layer.geometryType !== null && layer.featureCount !== 0 ? presentGeometryTypes(op, opened.dataset, layer.name) : [];
    return {
      name: layer.name,
      featureCount: layer.featureCount,
      geometryType: layer.geometryType,
      geometryTypes: present.filter((t): t is string => t !== null).map((t) => GEOMETRY_NAMES[t] ?? t),
      featuresWithoutGeometry: present.includes(null),
      geometryColumn: layer.geometryColumn,
      fields: layer.fields,
      extent: layer.extent && { minX: layer.extent[0], minY: layer.extent[1], maxX: layer.extent[2], maxY: layer.extent[3] },
      crs: layer.crs,
    };
  });
  return {
    kind: "vector",
    format,
    driver: opened.driver.shortName,
    driverLongName: opened.driver.longName,
    layerCount: layers.length,
    featureCount: layers.reduce((sum, l) => sum + Math.max(0, l.featureCount), 0),
    layers,
  };
}

function rasterReport(op: Operation, input: Parameters<typeof openRaster>[1]) {
  const { info } = openRaster(op, input, PURPOSE);
  return {
    kind: "raster",
    format: "geotiff",
    driver: info.driver,
    driverLongName: info.driverLongName,
    width: info.width,
    height: info.height,
    bandCount: info.bands.length,
    bands: info.bands,
    geoTransform: info.geoTransform,
    pixelSize: info.geoTransform && { x: info.geoTransform[1], y: info.geoTransform[5] },
    cornerCoordinates: info.cornerCoordinates,
    crs: info.crs,
    imageStructure: info.imageStructure,
  };
}
