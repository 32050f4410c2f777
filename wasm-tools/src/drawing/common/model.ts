/**
 * One drawing model for both readers (LibreDWG for DWG, dxf-parser for DXF): what the tools
 * report and draw. Coordinates are the drawing's own (world, or block-local inside a block);
 * angles in radians, counter-clockwise. Z is dropped: the family draws plan views.
 */

export interface Vec {
  x: number;
  y: number;
}

/** A vertex of a polyline: `bulge` is tan(θ/4) of the arc to the next vertex (0: straight). */
export interface Vertex extends Vec {
  bulge: number;
}

/** How an entity says its colour: an AutoCAD Color Index (0 BYBLOCK, 256 BYLAYER) and/or a true colour. */
export interface Paint {
  aci: number;
  /** 0xRRGGBB when the entity carries a true colour (it wins over the index). */
  rgb?: number;
  /** Line weight in 1/100 mm; negative: by layer (-1), by block (-2), default (-3). */
  lineweight: number;
}

export type Shape =
  | { kind: "line"; a: Vec; b: Vec }
  | { kind: "polyline"; vertices: Vertex[]; closed: boolean }
  | { kind: "circle"; center: Vec; radius: number }
  | { kind: "arc"; center: Vec; radius: number; start: number; end: number }
  | { kind: "ellipse"; center: Vec; major: Vec; ratio: number; start: number; end: number }
  | { kind: "spline"; degree: number; controlPoints: Vec[]; knots: number[]; weights: number[]; fitPoints: Vec[]; closed: boolean }
  | { kind: "text"; at: Vec; height: number; rotation: number; text: string; widthFactor: number }
  | { kind: "point"; at: Vec }
  /** SOLID, TRACE, 3DFACE and WIPEOUT outlines: a filled polygon. */
  | { kind: "face"; points: Vec[]; filled: boolean }
  /** HATCH: closed loops, filled when solid (patterns are drawn as the outline, not the pattern lines). */
  | { kind: "hatch"; loops: Vertex[][]; solid: boolean; pattern: string }
  /** INSERT and DIMENSION (its anonymous block) and MINSERT grids. */
  | { kind: "insert"; block: string; at: Vec; scale: Vec; rotation: number; columns: number; rows: number; columnSpacing: number; rowSpacing: number; attribs: Entity[] }
  /** What neither reader turns into geometry (3DSOLID, proxies, tables without a block): counted, not drawn. */
  | { kind: "other" };

/** An entity: its DXF type name, layer, paint and shape. */
export type Entity = Paint & {
  type: string;
  layer: string;
  handle?: string;
  /** Set by the file (e.g. an invisible ATTRIB or a hidden entity). */
  invisible?: boolean;
} & Shape;

export interface Layer {
  name: string;
  aci: number;
  rgb?: number;
  lineweight: number;
  off: boolean;
  frozen: boolean;
}

export interface Block {
  name: string;
  base: Vec;
  entities: Entity[];
}

export interface Drawing {
  format: "dwg" | "dxf";
  /** $ACADVER, e.g. AC1032. */
  version: string;
  /** The header's $INSUNITS code (0: unitless). */
  insUnits: number;
  /** $EXTMIN/$EXTMAX as the writer saved them (may be stale or unset). */
  headerExtents: { min: Vec; max: Vec } | null;
  layers: Layer[];
  blocks: Map<string, Block>;
  /** Layout names (Model first). */
  layouts: string[];
  /** Model space. */
  entities: Entity[];
  /** Each paper-space layout's entities, by layout name. */
  paperSpaces: Map<string, Entity[]>;
}

/** A drawing's block of user content: not the model or paper space record. */
export function isSpaceBlock(name: string): boolean {
  return /^\*(model|paper)_space/i.test(name);
}

/** $INSUNITS code -> name (AutoCAD's table). */
const UNITS = ["unitless", "inches", "feet", "miles", "millimeters", "centimeters", "meters", "kilometers", "microinches", "mils", "yards", "angstroms", "nanometers", "microns", "decimeters", "decameters", "hectometers", "gigameters", "astronomical units", "light years", "parsecs", "US survey feet", "US survey inches", "US survey yards", "US survey miles"];

export function unitName(code: number): string {
  return UNITS[code] ?? "unitless";
}

/** Release names of the $ACADVER strings. */
const RELEASES: Record<string, string> = {
  MC0: "MC0.0", AC1: "1.2", "AC1.2": "1.2", "AC1.40": "1.40", "AC1.50": "2.0", "AC2.10": "2.10", AC1001: "2.5", AC1002: "2.6", AC1003: "9", AC1004: "10", AC1006: "11/12", AC1009: "11/12",
  AC1012: "13", AC1014: "14", AC1015: "2000", AC1018: "2004", AC1021: "2007", AC1024: "2010", AC1027: "2013", AC1032: "2018",
};

/** "AutoCAD 2018" for AC1032, else the raw version string. */
export function releaseName(version: string): string {
  const release = RELEASES[version];
  return release ? `AutoCAD ${/^\d{4}$/.test(release) ? release : `R${release}`}` : version;
}
