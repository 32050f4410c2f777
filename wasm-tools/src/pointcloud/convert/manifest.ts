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
  io: { accepts: ["las", "laz"], produces: ["ply", "xyz", "csv"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Points are read a block at a time (LAZ a chunk at a time, from a host file on the server, a
  // File's slices in the browser) and the output written as it comes: to a host file on the
  // server, where memory stays flat whatever the size. The browser holds the whole output, joined
  // at the end: LAZ to CSV, the worst case, peaked 24x the input (its text is ~12x a LAZ's size);
  // LAS to XYZ 1.4x.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 1_200_000, memoryPerInputByte: 24 },
} satisfies ToolManifest;
