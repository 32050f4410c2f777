/** Params the drawing tools share. */
import { Type } from "@sinclair/typebox";

export const layers = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
  maxItems: 1000,
  default: [],
  description: "Draw only the entities on these layers (after blocks pass layer 0 on to their insert's layer); all visible layers when empty",
});

export const background = Type.String({
  pattern: "^(#[0-9a-fA-F]{6}|none)$",
  default: "#ffffff",
  description: "Background colour as #rrggbb, or none (transparent); colour 7 and colours too close to it are drawn in the contrasting black or white",
});

export const layout = Type.String({
  minLength: 1,
  maxLength: 255,
  default: "Model",
  description: "Model for model space, or the name of a paper-space layout as drawing.info lists it under layouts",
});
