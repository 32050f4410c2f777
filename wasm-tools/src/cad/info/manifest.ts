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
  // Memory per input byte: OCCT holds the model and its mesh; the worker's peak grew 20.3x the
  // input's growth on 0.9 and 3.5 MB STEP assemblies (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 20.3 },
} satisfies ToolManifest;
