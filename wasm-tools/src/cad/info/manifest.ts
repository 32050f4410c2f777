/** cad.info: what a STEP, IGES or BREP file holds (parts, triangles, colours, size) as JSON. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { angularDeflection, linearDeflection } from "../common/params";

export const params = Type.Object({ linearDeflection, angularDeflection }, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "cad.info",
  family: "cad",
  title: "CAD model info",
  description: "Reports what a STEP, IGES or BREP model holds as JSON: its source format, parts with names, assembly paths, colours and triangle counts at the given mesh fineness, the overall bounding box in millimetres and the total triangle count.",
  io: { accepts: ["step", "iges", "brep"], produces: ["json"] },
  params,
  deterministic: true,
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000 },
} satisfies ToolManifest;
