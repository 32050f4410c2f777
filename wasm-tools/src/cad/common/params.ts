/** Params every CAD tool shares: how finely surfaces are turned into triangles. */
import { Type } from "@sinclair/typebox";

/** Largest mesh-to-surface distance as a fraction of the model's size (occt-import-js's bounding-box ratio). */
export const linearDeflection = Type.Number({
  minimum: 0.0001,
  maximum: 0.1,
  default: 0.001,
  description: "Mesh fineness: largest distance between triangles and the true surface, as a fraction of the model's size. Smaller is finer (more triangles); 0.001 is a good default, 0.01 coarse, 0.0002 very fine.",
});

/** Largest angle between neighbouring facets on curved surfaces. */
export const angularDeflection = Type.Number({
  minimum: 0.05,
  maximum: 1,
  default: 0.5,
  description: "Largest angle, in radians, between neighbouring triangles on curved surfaces. Smaller is smoother.",
});
