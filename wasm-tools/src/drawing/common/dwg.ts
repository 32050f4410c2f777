/**
 * DWG -> Drawing through LibreDWG (a fresh WASM instance per file, see init.ts). LibreDWG's
 * error bits below 128 are warnings it recovers from (a wrong CRC, an unknown class); from 128 on
 * the file could not be read.
 */
import type { DwgDatabase, DwgEntity } from "@mlightcad/libredwg-web";
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../../runtime/context";
import { freshLibreDwg } from "../init";
import { hatchLoops, type HatchPath } from "./hatch";
import type { Block, Drawing, Entity, Layer, Shape, Vec } from "./model";
import { isSpaceBlock, releaseName } from "./model";

const DWG_ERR_CRITICAL = 128;
const DWG_ERR_NOTYETSUPPORTED = 2;
/** The versions LibreDWG reads fully (and those the fixtures prove); a failed read of another one is "unsupported", not "damaged". */
const READ_VERSIONS = /^(AC101[2-8]|AC102[14]|AC1027|AC1032|AC2\.10)$/;

/** The version string at the start of a DWG, e.g. AC1032, AC2.10. */
export function dwgVersionOf(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes.subarray(0, 6)).replace(/\0.*$/, "");
}

/** Why LibreDWG could not read a DWG: a version it does not read, or a damaged file. */
function readFailure(version: string, error: number): ToolError {
  if ((error & DWG_ERR_NOTYETSUPPORTED) !== 0 || !READ_VERSIONS.test(version)) {
    return new ToolError("INPUT_UNSUPPORTED", `DWG version ${version} (${releaseName(version)}) is not supported: the drawing tools read AutoCAD R13 to 2018 (AC1012 to AC1032) and R2.10`);
  }
  return new ToolError("INPUT_INVALID", `The DWG (${releaseName(version)}) is damaged or truncated: LibreDWG stopped with error 0x${error.toString(16)}`);
}

/**
 * The DXF LibreDWG writes for a DWG (its dxf writer, same version as the DWG). The library
 * reports only success or failure, so a failure is explained by the version or taken as damage.
 */
export async function dwgToDxf(bytes: Uint8Array): Promise<Uint8Array> {
  const version = dwgVersionOf(bytes);
  const { lib } = await freshLibreDwg();
  let dxf: Uint8Array | null;
  try {
    dxf = lib.dwg_write_dxf(bytes.slice().buffer);
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `LibreDWG could not write this DWG (${releaseName(version)}) as DXF: ${errorMessage(err)}`);
  }
  if (!dxf?.length) throw readFailure(version, DWG_ERR_CRITICAL);
  return dxf;
}

/** Reads a DWG into the drawing model; ToolError INPUT_INVALID or INPUT_UNSUPPORTED when it cannot. */
export async function readDwg(bytes: Uint8Array, maxObjects: number, tooLarge: (count: number) => Error): Promise<Drawing> {
  const version = dwgVersionOf(bytes);
  const { lib } = await freshLibreDwg();
  const path = "input.dwg";
  let result: { error: number; data: number };
  try {
    lib.FS.writeFile(path, bytes);
    result = (lib as unknown as { dwg_read_file(path: string): { error: number; data: number } }).dwg_read_file(path);
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `The DWG (${releaseName(version)}) could not be read: ${errorMessage(err)}`);
  }
  if (result.error >= DWG_ERR_CRITICAL || !result.data) throw readFailure(version, result.error);
  const objects = lib.dwg_get_num_objects(result.data as never);
  if (objects > maxObjects) throw tooLarge(objects);
  let db: DwgDatabase;
  try {
    db = lib.convert(result.data as never);
  } catch (err) {
    throw new ToolError("INPUT_UNSUPPORTED", `LibreDWG could not convert this DWG (${releaseName(version)}): ${errorMessage(err)}`);
  }
  return fromDatabase(db, version);
}

type Any = Record<string, any>;

function fromDatabase(db: DwgDatabase, fileVersion: string): Drawing {
  const header = db.header as Any;
  const blocks = new Map<string, Block>();
  const layoutObjects = (db.objects as Any).LAYOUT as Any[];
  const layoutName = new Map(layoutObjects.map((l) => [String(l.handle), String(l.layoutName)]));
  const paperSpaces = new Map<string, Entity[]>();
  let model: Entity[] = [];
  for (const record of db.tables.BLOCK_RECORD.entries as Any[]) {
    const entities = (record.entities as DwgEntity[]).flatMap(toEntity);
    if (/^\*model_space$/i.test(record.name)) model = entities;
    else if (/^\*paper_space/i.test(record.name)) paperSpaces.set(layoutName.get(String(record.layout)) ?? record.name, entities);
    blocks.set(record.name, { name: record.name, base: xy(record.basePoint), entities });
  }
  const layers: Layer[] = (db.tables.LAYER.entries as Any[]).map((l) => ({
    name: l.name,
    aci: Math.abs(l.colorIndex ?? 7),
    lineweight: l.lineweight ?? -3,
    off: !!l.off || (l.colorIndex ?? 0) < 0,
    frozen: !!l.frozen,
  }));
  const layouts = layoutObjects.map((l) => String(l.layoutName)).sort((a, b) => (a === "Model" ? -1 : b === "Model" ? 1 : 0));
  const extents = header.EXTMIN && header.EXTMAX ? { min: xy(header.EXTMIN), max: xy(header.EXTMAX) } : null;
  return {
    format: "dwg",
    version: header.ACADVER || fileVersion,
    insUnits: header.INSUNITS ?? 0,
    headerExtents: extents,
    layers,
    blocks: new Map([...blocks].filter(([name]) => !isSpaceBlock(name) || /^\*model_space$/i.test(name))),
    layouts: layouts.length ? layouts : ["Model"],
    entities: model,
    paperSpaces,
  };
}

function xy(p: Any | undefined): Vec {
  return { x: Number(p?.x ?? 0), y: Number(p?.y ?? 0) };
}

/** Closed when bit 1 of the polyline flag is set. */
const closedFlag = (flag: number | undefined) => ((flag ?? 0) & 1) === 1;

function shapeOf(e: Any): Shape | Shape[] {
  switch (e.type) {
    case "LINE":
      return { kind: "line", a: xy(e.startPoint), b: xy(e.endPoint) };
    case "LWPOLYLINE":
      return { kind: "polyline", vertices: (e.vertices as Any[]).map((v) => ({ ...xy(v), bulge: v.bulge ?? 0 })), closed: closedFlag(e.flag) };
    case "POLYLINE2D":
    case "POLYLINE3D":
      return { kind: "polyline", vertices: (e.vertices as Any[]).map((v) => ({ ...xy(v), bulge: v.bulge ?? 0 })), closed: closedFlag(e.flag) };
    case "CIRCLE":
      return { kind: "circle", center: xy(e.center), radius: e.radius };
    case "ARC":
      return { kind: "arc", center: xy(e.center), radius: e.radius, start: e.startAngle, end: e.endAngle };
    case "ELLIPSE":
      return { kind: "ellipse", center: xy(e.center), major: xy(e.majorAxisEndPoint), ratio: e.axisRatio, start: e.startAngle, end: e.endAngle };
    case "SPLINE":
      return {
        kind: "spline",
        degree: e.degree,
        controlPoints: (e.controlPoints as Any[]).map(xy),
        knots: e.knots ?? [],
        weights: e.weights ?? [],
        fitPoints: (e.fitPoints as Any[]).map(xy),
        closed: closedFlag(e.flag),
      };
    case "TEXT":
      return { kind: "text", at: xy(e.startPoint), height: e.textHeight, rotation: e.rotation ?? 0, text: e.text ?? "", widthFactor: e.xScale || 1 };
    case "ATTRIB":
    case "ATTDEF":
      return { kind: "text", at: xy(e.text?.startPoint), height: e.text?.textHeight ?? 0, rotation: e.text?.rotation ?? 0, text: e.text?.text ?? e.tag ?? "", widthFactor: e.text?.xScale || 1 };
    case "MTEXT":
      return { kind: "text", at: xy(e.insertionPoint), height: e.textHeight, rotation: e.direction ? Math.atan2(e.direction.y, e.direction.x) : (e.rotation ?? 0), text: e.text ?? "", widthFactor: 1 };
    case "POINT":
      return { kind: "point", at: xy(e.position) };
    case "SOLID":
    case "TRACE":
      return { kind: "face", points: solidCorners([e.corner1, e.corner2, e.corner3, e.corner4]), filled: true };
    case "3DFACE":
      return { kind: "face", points: [e.corner1, e.corner2, e.corner3, e.corner4].filter(Boolean).map(xy), filled: false };
    case "HATCH":
      return { kind: "hatch", loops: hatchLoops(e.boundaryPaths as HatchPath[]), solid: e.solidFill === 1, pattern: e.patternName ?? "" };
    case "INSERT":
      return insertOf(e.name, e);
    case "DIMENSION":
      return e.name ? { kind: "insert", block: e.name, at: { x: 0, y: 0 }, scale: { x: 1, y: 1 }, rotation: 0, columns: 1, rows: 1, columnSpacing: 0, rowSpacing: 0, attribs: [] } : { kind: "other" };
    default:
      return { kind: "other" };
  }
}

/** SOLID stores its corners in zig-zag order (1, 2, 4, 3 around the outline). */
function solidCorners(corners: (Any | undefined)[]): Vec[] {
  const [a, b, c, d] = corners.map((p) => (p ? xy(p) : undefined));
  return [a, b, d ?? c, c].filter((p): p is Vec => p !== undefined).filter((p, i, all) => i === 0 || p.x !== all[i - 1].x || p.y !== all[i - 1].y);
}

function insertOf(block: string, e: Any): Shape {
  return {
    kind: "insert",
    block,
    at: xy(e.insertionPoint),
    scale: { x: e.xScale ?? 1, y: e.yScale ?? 1 },
    rotation: e.rotation ?? 0,
    columns: Math.max(1, e.columnCount ?? 1),
    rows: Math.max(1, e.rowCount ?? 1),
    columnSpacing: e.columnSpacing ?? 0,
    rowSpacing: e.rowSpacing ?? 0,
    attribs: ((e.attribs ?? []) as DwgEntity[]).flatMap(toEntity),
  };
}

function toEntity(raw: DwgEntity): Entity[] {
  const e = raw as Any;
  const shape = shapeOf(e);
  const base = {
    type: e.type === "POLYLINE2D" || e.type === "POLYLINE3D" ? "POLYLINE" : e.type,
    layer: e.layer ?? "0",
    handle: e.handle,
    aci: e.colorIndex ?? 256,
    lineweight: e.lineweight ?? -1,
    invisible: e.isVisible === false || (e.type === "ATTRIB" && (e.flags & 1) === 1),
  };
  return [{ ...base, ...(shape as Shape) } as Entity];
}
