/**
 * A drawing as what every output draws: one item per visible entity, with block inserts
 * expanded (their entities transformed, layer 0 and BYBLOCK taking the insert's layer and
 * colour, as AutoCAD does) and every curve sampled into straight runs in world coordinates.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { cssColor } from "./color";
import { arcPoints, circlePoints, ellipsePoints, polylinePoints, splinePoints } from "./curves";
import type { Drawing, Entity, Layer, Vec } from "./model";

/** 2D affine map: (x, y) -> (a x + c y + e, b x + d y + f). */
type Affine = [number, number, number, number, number, number];

const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

function multiply(m: Affine, n: Affine): Affine {
  return [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];
}

function apply(m: Affine, p: Vec): Vec {
  return { x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5] };
}

const translate = (x: number, y: number): Affine => [1, 0, 0, 1, x, y];
const rotate = (a: number): Affine => [Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), 0, 0];
const scale = (x: number, y: number): Affine => [x, 0, 0, y, 0, 0];

export interface DrawnText {
  at: Vec;
  height: number;
  rotation: number;
  text: string;
}

/** One visible entity, ready to draw. */
export interface Item {
  entity: string;
  layer: string;
  handle?: string;
  color: string;
  /** Line weight in mm. */
  weight: number;
  /** Straight runs in world coordinates. */
  runs: Vec[][];
  /** Runs are closed outlines to fill (SOLID, solid HATCH). */
  filled: boolean;
  /** Runs are closed outlines (polygons for GeoJSON) though not filled. */
  closed: boolean;
  text?: DrawnText;
  point?: Vec;
  /** Which top-level insert drew it (a running number), for writers that merge a block's geometry. */
  insert?: { id: number; entity: string; block: string };
}

export interface FlattenOptions {
  /** Only entities on these layers (after inheritance); all when empty. */
  layers?: string[];
  background: string;
  /** Refuse drawings that expand to more items than this (a block inserted a million times). */
  maxItems: number;
}

/** AutoCAD's default line weight, 0.25 mm. */
const DEFAULT_WEIGHT = 25;
const MAX_DEPTH = 16;

interface Inherited {
  layer: string;
  aci: number;
  rgb?: number;
  lineweight: number;
}

export function flatten(drawing: Drawing, options: FlattenOptions): Item[] {
  const layers = new Map<string, Layer>(drawing.layers.map((l) => [l.name, l]));
  const only = options.layers?.length ? new Set(options.layers) : null;
  const items: Item[] = [];
  let inserts = 0;
  let current: Item["insert"];

  const walk = (entities: Entity[], m: Affine, parent: Inherited | null, depth: number) => {
    for (const e of entities) {
      // An ATTDEF inside a block is the template of its inserts' ATTRIBs, which are drawn instead.
      if (e.invisible || (parent && e.type === "ATTDEF")) continue;
      const layerName = parent && e.layer === "0" ? parent.layer : e.layer;
      const layer = layers.get(layerName);
      if (layer && (layer.off || layer.frozen)) continue;
      const byBlock = e.aci === 0 && parent;
      const aci = byBlock ? parent.aci : e.aci === 256 ? (layer?.aci ?? 7) : e.aci;
      const rgb = byBlock ? parent.rgb : e.rgb;
      const lw = e.lineweight === -2 && parent ? parent.lineweight : e.lineweight >= 0 ? e.lineweight : (layer?.lineweight ?? -1) >= 0 ? layer!.lineweight : DEFAULT_WEIGHT;
      if (e.kind === "insert") {
        if (depth === 0 && e.type === "INSERT") current = { id: ++inserts, entity: e.type, block: e.block };
        insert(e, m, { layer: layerName, aci, rgb, lineweight: lw }, depth);
        if (depth === 0) current = undefined;
        continue;
      }
      if (only && !only.has(layerName)) continue;
      const item = draw(e, m);
      if (!item) continue;
      if (items.length >= options.maxItems) {
        throw new ToolError("INPUT_TOO_LARGE", `The drawing expands to more than ${options.maxItems.toLocaleString("en")} entities (blocks inserted many times count each time); this tool draws at most that many`);
      }
      items.push({ entity: e.type, layer: layerName, handle: e.handle, color: cssColor(aci, rgb, options.background), weight: lw / 100, ...item, ...(current && parent ? { insert: current } : {}) });
    }
  };

  const insert = (e: Extract<Entity, { kind: "insert" }>, m: Affine, inherited: Inherited, depth: number) => {
    const block = drawing.blocks.get(e.block);
    if (block && depth < MAX_DEPTH) {
      const local = multiply(scale(e.scale.x, e.scale.y), translate(-block.base.x, -block.base.y));
      for (let r = 0; r < e.rows; r++) {
        for (let c = 0; c < e.columns; c++) {
          const placed = multiply(multiply(multiply(translate(e.at.x, e.at.y), rotate(e.rotation)), translate(c * e.columnSpacing, r * e.rowSpacing)), local);
          walk(block.entities, multiply(m, placed), inherited, depth + 1);
        }
      }
    }
    // ATTRIBs are stored in world (or the parent block's) coordinates, not the block's.
    walk(e.attribs, m, null, depth);
  };

  walk(drawing.entities, IDENTITY, null, 0);
  return items;
}

type Drawn = Pick<Item, "runs" | "filled" | "closed" | "text" | "point">;

function draw(e: Entity, m: Affine): Drawn | null {
  const run = (points: Vec[], closed = false): Drawn => ({ runs: [points.map((p) => apply(m, p))], filled: false, closed });
  switch (e.kind) {
    case "line":
      return run([e.a, e.b]);
    case "polyline":
      return e.vertices.length ? run(polylinePoints(e.vertices, e.closed), e.closed) : null;
    case "circle":
      return run(circlePoints(e.center, e.radius), true);
    case "arc":
      return run(arcPoints(e.center, e.radius, e.start, e.end));
    case "ellipse":
      return run(ellipsePoints(e.center, e.major, e.ratio, e.start, e.end));
    case "spline":
      return run(splinePoints(e.degree, e.controlPoints, e.knots, e.weights, e.fitPoints), e.closed);
    case "face":
      return e.points.length >= 2 ? { ...run([...e.points, e.points[0]], true), filled: e.filled } : null;
    case "hatch":
      return e.loops.length ? { runs: e.loops.map((loop) => polylinePoints(loop, true).map((p) => apply(m, p))), filled: e.solid, closed: true } : null;
    case "point":
      return { runs: [], filled: false, closed: false, point: apply(m, e.at) };
    case "text": {
      const text = plainText(e.text);
      if (!text.trim() || !(e.height > 0)) return null;
      const at = apply(m, e.at);
      const ux = apply(m, { x: e.at.x + Math.cos(e.rotation), y: e.at.y + Math.sin(e.rotation) });
      const uy = apply(m, { x: e.at.x - Math.sin(e.rotation), y: e.at.y + Math.cos(e.rotation) });
      const height = e.height * Math.hypot(uy.x - at.x, uy.y - at.y);
      return { runs: [], filled: false, closed: false, text: { at, height, rotation: Math.atan2(ux.y - at.y, ux.x - at.x), text } };
    }
    default:
      return null;
  }
}

/** MTEXT's inline codes removed: \P is a line break, {\f...;} font changes and the like go. */
export function plainText(text: string): string {
  return text
    .replace(/\\P/g, "\n")
    .replace(/\\[ACFHQTWfhqtwapc][^;\\{}]*;/g, "")
    .replace(/\\S([^;]*)[\^#/]([^;]*);/g, "$1/$2")
    .replace(/\\[LlOoKkNX~]/g, "")
    .replace(/[{}]/g, "")
    .replace(/\\\\/g, "\\")
    .replace(/%%[cC]/g, "Ø")
    .replace(/%%[dD]/g, "°")
    .replace(/%%[pP]/g, "±")
    .replace(/%%[uUoOkK]/g, "");
}

/** Bounds of drawn items (points, runs and text anchors), or null when nothing is drawn. */
export function boundsOf(items: Item[]): { min: Vec; max: Vec } | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const add = (p: Vec) => {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return;
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  };
  for (const item of items) {
    for (const run of item.runs) for (const p of run) add(p);
    if (item.point) add(item.point);
    if (item.text) add(item.text.at);
  }
  return minX <= maxX ? { min: { x: minX, y: minY }, max: { x: maxX, y: maxY } } : null;
}
