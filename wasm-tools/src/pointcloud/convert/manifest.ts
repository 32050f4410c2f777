/** pointcloud.convert: LAS/LAZ to PLY, XYZ text or CSV. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    format: Type.Union([Type.Literal("ply"), Type.Literal("xyz"), Type.Literal("csv")], {
      default: "ply",
      description: "ply: binary little-endian, double x y z (+ uchar red green blue); xyz: 'x y z [r g b]' lines; csv: header row and one row per point",
    }),
    color: Type.Boolean({ default: true, description: "Include RGB when the file has colour (PLY and XYZ as 0-255, CSV as stored)" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pointcloud.convert",
  family: "pointcloud",
  title: "Convert point cloud",
  description: "Converts a LAS or LAZ point cloud to PLY (binary), XYZ text or CSV with a header row. Coordinates keep the precision of the file's scale.",
  io: { accepts: ["las", "laz"], produces: ["ply", "xyz", "csv"] },
  params,
  deterministic: true,
  // In memory, all of it: the file, its decoded points and the whole text output (the worker
  // peaked 6.9x the input converting a 100 MB LAS to XYZ: BENCH_TOOLS_BIG=1 npm run bench -- tools).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 300_000 },
} satisfies ToolManifest;
