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

export async function readDrawn(input: ToolInput, options: { layers?: string[]; background: string }, ctx: RunContext): Promise<Drawn> {
  ctx.onProgress(0.05, "reading");
  const drawing = await readDrawing(input);
  checkpoint(ctx);
  ctx.onProgress(0.5, "expanding blocks");
  const items = flatten(drawing, { ...options, maxItems: MAX_ITEMS });
  const bounds = boundsOf(items);
  if (!bounds) {
    const what = options.layers?.length ? `on the layers ${options.layers.join(", ")}` : "in its model space";
    throw new ToolError("INPUT_EMPTY", `"${input.name}" has nothing to draw ${what}`);
  }
  checkpoint(ctx);
  return { drawing, items, bounds };
}
