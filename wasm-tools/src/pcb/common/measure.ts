/** Sizes and drill statistics read off plotted layers (for pcb.info). */
import { mmPerViewBoxUnit, type ParsedObject, type PlottedLayer } from "./plot";

/** An axis-aligned box in mm: [minX, minY, maxX, maxY]. */
export type BoxMm = [number, number, number, number];

const round = (value: number, places = 4) => Math.round(value * 10 ** places) / 10 ** places;

/** The layer's drawn extent in mm, or undefined for a layer that draws nothing. */
export function layerBoxMm(plot: PlottedLayer): BoxMm | undefined {
  const [x, y, w, h] = plot.converter.viewBox;
  if (!w && !h) return undefined;
  const k = mmPerViewBoxUnit(plot.converter.units);
  return [x * k, y * k, (x + w) * k, (y + h) * k];
}

/** The smallest box holding all `boxes`, or undefined when there are none. */
export function unionBox(boxes: (BoxMm | undefined)[]): BoxMm | undefined {
  const present = boxes.filter((b): b is BoxMm => b !== undefined);
  if (!present.length) return undefined;
  return [Math.min(...present.map((b) => b[0])), Math.min(...present.map((b) => b[1])), Math.max(...present.map((b) => b[2])), Math.max(...present.map((b) => b[3]))];
}

/** `{ widthMm, heightMm }` of a box, rounded to 0.1 µm. */
export function sizeOf(box: BoxMm): { widthMm: number; heightMm: number } {
  return { widthMm: round(box[2] - box[0]), heightMm: round(box[3] - box[1]) };
}

/** Holes per tool diameter in one drill file. */
export interface DrillStats {
  holes: number;
  /** Routed or slotted moves (G85 slots, G01 routes). */
  slots: number;
  byDiameterMm: Map<number, { holes: number; slots: number }>;
}

/** Counts flashes (holes) and interpolations (slots) per tool of a plotted drill file. */
export function drillStats(plot: PlottedLayer): DrillStats {
  const mmPerUnit = plot.converter.units === "in" ? 25.4 : 1;
  const diameters = new Map<string, number>();
  const byDiameterMm = new Map<number, { holes: number; slots: number }>();
  let current: string | undefined;
  let holes = 0;
  let slots = 0;
  const count = (kind: "holes" | "slots") => {
    const diameter = current !== undefined ? diameters.get(current) : undefined;
    const key = diameter ?? 0;
    const entry = byDiameterMm.get(key) ?? { holes: 0, slots: 0 };
    entry[kind]++;
    byDiameterMm.set(key, entry);
  };
  for (const object of plot.parsed as ParsedObject[]) {
    if (object.type === "tool" && object.code !== undefined && object.tool) {
      diameters.set(object.code, round((object.tool.params[0] ?? 0) * mmPerUnit));
    } else if (object.type === "set" && object.prop === "tool") {
      current = String(object.value);
    } else if (object.type === "op" && object.op === "flash") {
      holes++;
      count("holes");
    } else if (object.type === "op" && object.op === "int") {
      slots++;
      count("slots");
    }
  }
  return { holes, slots, byDiameterMm };
}
