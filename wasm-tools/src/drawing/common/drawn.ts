/** Read, flatten and bound a drawing for the tools that draw it (SVG, PDF, GeoJSON). */
import { ToolError, type RunContext, type ToolInput } from "@vektor/shared/tools/manifest";
import { checkpoint } from "../../runtime/context";
import { boundsOf, flatten, type Item } from "./flatten";
import type { Drawing, Vec } from "./model";
import { MAX_OBJECTS, readDrawing } from "./read";

/** Most items a drawing may expand to (blocks inserted many times count each time). */
export const MAX_ITEMS = MAX_OBJECTS * 2;

export interface Drawn {
  drawing: Drawing;
  items: Item[];
  bounds: { min: Vec; max: Vec };
}

/** The drawing with the chosen layout's entities as the ones to draw. */
function inLayout(drawing: Drawing, layout: string): Drawing {
  if (layout.toLowerCase() === "model") return drawing;
  const entities = drawing.paperSpaces.get(layout);
  if (!entities) throw new ToolError("PARAMS_INVALID", `The drawing has no layout "${layout}"; its layouts are ${drawing.layouts.join(", ")}`);
  return { ...drawing, entities };
}

export async function readDrawn(input: ToolInput, options: { layers?: string[]; background: string; layout?: string }, ctx: RunContext): Promise<Drawn> {
  ctx.onProgress(0.05, "reading");
  const drawing = inLayout(await readDrawing(input), options.layout ?? "Model");
  checkpoint(ctx);
  ctx.onProgress(0.5, "expanding blocks");
  const items = flatten(drawing, { ...options, maxItems: MAX_ITEMS });
  const bounds = boundsOf(items);
  if (!bounds) {
    const space = !options.layout || options.layout.toLowerCase() === "model" ? "its model space" : `layout ${options.layout}`;
    const what = options.layers?.length ? `on the layers ${options.layers.join(", ")} in ${space}` : `in ${space}`;
    throw new ToolError("INPUT_EMPTY", `"${input.name}" has nothing to draw ${what}`);
  }
  checkpoint(ctx);
  return { drawing, items, bounds };
}
