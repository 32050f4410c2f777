/**
 * DXF -> Drawing through dxf-parser, with handlers for what it leaves out (HATCH, ATTRIB, TRACE
 * and a counting handler for entities it cannot draw), binary DXF turned into ASCII first, and
 * its loose failures (a thrown string, a missing EOF) turned into INPUT_INVALID.
 */
import DxfParser from "dxf-parser";
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../../runtime/context";
import { aciRgb } from "./color";
import { binaryDxfToText, isBinaryDxf } from "./dxf-binary";
import { hatchLoops, type HatchEdge, type HatchPath } from "./hatch";
import type { Block, Drawing, Entity, Layer, Shape, Vec } from "./model";

type Group = { code: number; value: string | number | boolean };
type Scanner = { next(): Group; lastReadGroup: Group; isEOF(): boolean };
type Any = Record<string, any>;

/** Reads an entity's groups up to the next 0 group (where dxf-parser expects the scanner to stop). */
function groupsOf(scanner: Scanner): Group[] {
  const groups: Group[] = [];
  let curr = scanner.next();
  while (!scanner.isEOF() && curr.code !== 0) {
    groups.push(curr);
    curr = scanner.next();
  }
  return groups;
}

/** The properties every entity shares (dxf-parser's own names). */
function common(type: string, groups: Group[]): Any {
  const entity: Any = { type };
  for (const { code, value } of groups) {
    if (code === 5) entity.handle = value;
    else if (code === 8) entity.layer = value;
    else if (code === 62) entity.colorIndex = value;
    else if (code === 420) entity.trueColor = value;
    else if (code === 370) entity.lineweight = value;
    else if (code === 60) entity.visible = value === 0;
    else if (code === 67) entity.inPaperSpace = value !== 0;
  }
  return entity;
}

/**
 * A dxf-parser entity handler: reads the entity's groups, takes the common properties and lets
 * `fill` add the rest (`scanner` for handlers that read following records, such as VERTEX).
 */
function handler(name: string, fill: (entity: Any, groups: Group[], scanner: Scanner) => void = () => {}) {
  return class {
    ForEntityName = name;
    parseEntity(scanner: Scanner, curr: Group) {
      const groups = groupsOf(scanner);
      const entity = common(String(curr.value), groups);
      fill(entity, groups, scanner);
      return entity;
    }
  };
}

const textOf = (groups: Group[], code: number) => String(groups.find((g) => g.code === code)?.value ?? "");
const pointOf = (groups: Group[], code: number): Vec => ({ x: num(groups, code), y: num(groups, code + 10) });

/** Entities dxf-parser has no handler for: kept with their common properties so they are counted. */
const COUNTED = ["MLINE", "MULTILEADER", "MLEADER", "LEADER", "3DSOLID", "REGION", "BODY", "VIEWPORT", "WIPEOUT", "IMAGE", "ACAD_TABLE", "TOLERANCE", "XLINE", "RAY", "SHAPE", "OLE2FRAME", "ARC_DIMENSION", "SURFACE", "MESH", "HELIX", "SECTION", "LIGHT", "UNDERLAY", "PDFUNDERLAY", "DWFUNDERLAY", "DGNUNDERLAY"];

const isRecord = (scanner: Scanner, name: string) => !scanner.isEOF() && scanner.lastReadGroup.code === 0 && scanner.lastReadGroup.value === name;

/** The handlers added to (or replacing) dxf-parser's own. */
const HANDLERS = [
  ...COUNTED.map((name) => handler(name)),
  handler("TRACE", (e, g) => {
    e.points = [pointOf(g, 10), pointOf(g, 11), pointOf(g, 12), pointOf(g, 13)];
  }),
  handler("ATTRIB", (e, g) => {
    Object.assign(e, { startPoint: pointOf(g, 10), textHeight: num(g, 40), rotation: num(g, 50), text: textOf(g, 1), tag: textOf(g, 2), invisible: (num(g, 70) & 1) === 1 });
  }),
  handler("HATCH", (e, g) => {
    Object.assign(e, { patternName: textOf(g, 2), solidFill: num(g, 70), boundaryPaths: hatchPaths(g) });
  }),
  /**
   * POLYLINE with its VERTEX records, replacing dxf-parser's own, which loops for ever when the
   * section ends before a SEQEND (LibreDWG writes such a file for R2.10 drawings). Polyface face
   * records (vertex flag 128) carry indices, not points, and are left out.
   */
  handler("POLYLINE", (e, g, scanner) => {
    e.shape = (num(g, 70) & 1) === 1;
    e.vertices = [];
    while (isRecord(scanner, "VERTEX")) {
      const vertex = groupsOf(scanner);
      if ((num(vertex, 70) & 128) === 0) e.vertices.push({ ...pointOf(vertex, 10), bulge: num(vertex, 42) });
    }
    if (isRecord(scanner, "SEQEND")) groupsOf(scanner);
  }),
];

function num(groups: Group[], code: number): number {
  return Number(groups.find((g) => g.code === code)?.value ?? 0);
}

/** A cursor over a hatch's groups, read in the order the DXF reference lays a boundary out. */
function hatchPaths(groups: Group[]): HatchPath[] {
  let i = groups.findIndex((g) => g.code === 91);
  if (i < 0) return [];
  const count = Number(groups[i++].value);
  const take = (code: number): number => {
    while (i < groups.length && groups[i].code !== code) i++;
    return i < groups.length ? Number(groups[i++].value) : 0;
  };
  const point = (x: number, y: number): Vec => ({ x: take(x), y: take(y) });
  const paths: HatchPath[] = [];
  for (let p = 0; p < count && i < groups.length; p++) {
    const flag = take(92);
    if (flag & 2) {
      const hasBulge = take(72);
      take(73);
      const n = take(93);
      const vertices = [];
      for (let v = 0; v < n; v++) {
        const at = point(10, 20);
        const bulge = hasBulge && groups[i]?.code === 42 ? Number(groups[i++].value) : 0;
        vertices.push({ ...at, bulge });
      }
      paths.push({ boundaryPathTypeFlag: flag, vertices });
    } else {
      const n = take(93);
      const edges: HatchEdge[] = [];
      for (let e = 0; e < n; e++) edges.push(hatchEdge(take(72), take, point));
      paths.push({ boundaryPathTypeFlag: flag, edges });
    }
    const sources = take(97);
    for (let s = 0; s < sources; s++) take(330);
  }
  return paths;
}

function hatchEdge(type: number, take: (code: number) => number, point: (x: number, y: number) => Vec): HatchEdge {
  switch (type) {
    case 1:
      return { type, start: point(10, 20), end: point(11, 21) };
    case 2:
      return { type, center: point(10, 20), radius: take(40), startAngle: (take(50) * Math.PI) / 180, endAngle: (take(51) * Math.PI) / 180, isCCW: take(73) === 1 };
    case 3:
      return { type, center: point(10, 20), end: point(11, 21), lengthOfMinorAxis: take(40), startAngle: (take(50) * Math.PI) / 180, endAngle: (take(51) * Math.PI) / 180, isCCW: take(73) === 1 };
    default: {
      const degree = take(94);
      take(73);
      take(74);
      const knotCount = take(95);
      const controlCount = take(96);
      const knots = Array.from({ length: knotCount }, () => take(40));
      const controlPoints = Array.from({ length: controlCount }, () => point(10, 20));
      return { type, degree, knots, controlPoints, weights: [] };
    }
  }
}

function parser(): DxfParser {
  const p = new DxfParser();
  for (const entityHandler of HANDLERS) p.registerEntityHandler(entityHandler as never);
  return p;
}

/** Reads a DXF (ASCII or binary) into the drawing model. */
export function readDxf(bytes: Uint8Array): Drawing {
  const text = isBinaryDxf(bytes) ? binaryDxfToText(bytes) : new TextDecoder("utf-8").decode(bytes);
  let parsed: Any | null;
  try {
    parsed = parser().parseSync(text) as Any | null;
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `The DXF could not be read: ${errorMessage(err)}`);
  }
  if (!parsed || (!parsed.entities?.length && !parsed.header && !parsed.tables)) throw new ToolError("INPUT_INVALID", "The DXF holds no HEADER, TABLES or ENTITIES section");
  return fromParsed(parsed);
}

const xy = (p: Any | undefined): Vec => ({ x: Number(p?.x ?? 0), y: Number(p?.y ?? 0) });
const rad = (deg: number | undefined) => ((deg ?? 0) * Math.PI) / 180;

function fromParsed(dxf: Any): Drawing {
  const header = (dxf.header ?? {}) as Any;
  const layers: Layer[] = Object.values((dxf.tables?.layer?.layers ?? {}) as Record<string, Any>).map((l) => ({
    name: String(l.name),
    aci: Math.abs(l.colorIndex ?? 7),
    lineweight: -3,
    off: l.visible === false,
    frozen: !!l.frozen,
  }));
  const blocks = new Map<string, Block>();
  const layouts = ["Model"];
  const paperSpaces = new Map<string, Entity[]>();
  // dxf-parser reads no OBJECTS section, so layouts go by their paper-space block names; the
  // active layout's entities are in ENTITIES, marked as paper space.
  const active: Entity[] = toEntities((dxf.entities ?? []).filter((e: Any) => e.inPaperSpace));
  for (const [name, block] of Object.entries((dxf.blocks ?? {}) as Record<string, Any>)) {
    if (/^\*paper_space/i.test(name)) {
      layouts.push(name);
      paperSpaces.set(name, /^\*paper_space$/i.test(name) && active.length ? active : toEntities(block.entities ?? []));
    }
    if (/^\*(model|paper)_space/i.test(name)) continue;
    blocks.set(name, { name, base: xy(block.position), entities: toEntities(block.entities ?? []) });
  }
  const extents = header.$EXTMIN && header.$EXTMAX ? { min: xy(header.$EXTMIN), max: xy(header.$EXTMAX) } : null;
  return {
    format: "dxf",
    version: String(header.$ACADVER ?? "AC1009"),
    insUnits: Number(header.$INSUNITS ?? 0),
    headerExtents: extents,
    layers,
    blocks,
    layouts,
    entities: toEntities((dxf.entities ?? []).filter((e: Any) => !e.inPaperSpace)),
    paperSpaces,
  };
}

/** ATTRIBs follow their INSERT in the file: they are folded into it, as DWG nests them. */
function toEntities(raw: Any[]): Entity[] {
  const out: Entity[] = [];
  for (const e of raw) {
    const entity = toEntity(e);
    const last = out.at(-1);
    if (entity.type === "ATTRIB" && last?.kind === "insert") last.attribs.push(entity);
    else out.push(entity);
  }
  return out;
}

function toEntity(e: Any): Entity {
  const aci = e.colorIndex ?? 256;
  const rgb = e.trueColor ?? (typeof e.color === "number" && aci > 0 && aci < 256 && e.color !== aciRgb(aci) ? e.color : undefined);
  return {
    type: e.type === "MLEADER" ? "MULTILEADER" : e.type,
    layer: String(e.layer ?? "0"),
    handle: e.handle === undefined ? undefined : String(e.handle),
    aci,
    ...(rgb === undefined ? {} : { rgb }),
    lineweight: e.lineweight ?? -1,
    invisible: e.visible === false || e.invisible === true,
    ...shapeOf(e),
  } as Entity;
}

function shapeOf(e: Any): Shape {
  switch (e.type) {
    case "LINE":
      return { kind: "line", a: xy(e.vertices?.[0]), b: xy(e.vertices?.[1]) };
    case "LWPOLYLINE":
    case "POLYLINE":
      return { kind: "polyline", vertices: ((e.vertices ?? []) as Any[]).filter((v) => !v.faces).map((v) => ({ ...xy(v), bulge: v.bulge ?? 0 })), closed: !!e.shape };
    case "CIRCLE":
      return { kind: "circle", center: xy(e.center), radius: e.radius ?? 0 };
    case "ARC":
      return { kind: "arc", center: xy(e.center), radius: e.radius ?? 0, start: e.startAngle ?? 0, end: e.endAngle ?? 0 };
    case "ELLIPSE":
      return { kind: "ellipse", center: xy(e.center), major: xy(e.majorAxisEndPoint), ratio: e.axisRatio ?? 1, start: e.startAngle ?? 0, end: e.endAngle ?? Math.PI * 2 };
    case "SPLINE":
      return {
        kind: "spline",
        degree: e.degreeOfSplineCurve ?? 3,
        controlPoints: ((e.controlPoints ?? []) as Any[]).map(xy),
        knots: e.knotValues ?? [],
        weights: e.weights ?? [],
        fitPoints: ((e.fitPoints ?? []) as Any[]).map(xy),
        closed: !!e.closed,
      };
    case "TEXT":
    case "ATTDEF":
    case "ATTRIB":
      return { kind: "text", at: xy(e.startPoint), height: e.textHeight ?? 0, rotation: rad(e.rotation), text: String(e.text ?? ""), widthFactor: e.xScale || 1 };
    case "MTEXT":
      return { kind: "text", at: xy(e.position), height: e.height ?? 0, rotation: e.directionVector ? Math.atan2(e.directionVector.y, e.directionVector.x) : rad(e.rotation), text: String(e.text ?? ""), widthFactor: 1 };
    case "POINT":
      return { kind: "point", at: xy(e.position) };
    case "SOLID":
    case "TRACE": {
      const [a, b, c, d] = ((e.points ?? []) as Any[]).map(xy);
      return { kind: "face", points: [a, b, d ?? c, c].filter(Boolean), filled: true };
    }
    case "3DFACE":
      return { kind: "face", points: ((e.vertices ?? []) as Any[]).filter((v) => v.x !== undefined).map(xy), filled: false };
    case "HATCH":
      return { kind: "hatch", loops: hatchLoops(e.boundaryPaths), solid: e.solidFill === 1, pattern: e.patternName ?? "" };
    case "INSERT":
      return {
        kind: "insert",
        block: String(e.name),
        at: xy(e.position),
        scale: { x: e.xScale ?? 1, y: e.yScale ?? 1 },
        rotation: rad(e.rotation),
        columns: Math.max(1, e.columnCount ?? 1),
        rows: Math.max(1, e.rowCount ?? 1),
        columnSpacing: e.columnSpacing ?? 0,
        rowSpacing: e.rowSpacing ?? 0,
        attribs: [],
      };
    case "DIMENSION":
      return e.block ? { kind: "insert", block: String(e.block), at: { x: 0, y: 0 }, scale: { x: 1, y: 1 }, rotation: 0, columns: 1, rows: 1, columnSpacing: 0, rowSpacing: 0, attribs: [] } : { kind: "other" };
    default:
      return { kind: "other" };
  }
}
