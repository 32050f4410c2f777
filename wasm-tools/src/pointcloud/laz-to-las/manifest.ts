/** pointcloud.laz-to-las: decompress LAZ to the LAS it was made from. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pointcloud.laz-to-las",
  family: "pointcloud",
  title: "LAZ to LAS",
  description: "Decompresses a LAZ point cloud to uncompressed LAS, keeping the header, VLRs and every point record exactly.",
  io: { accepts: ["laz"], produces: ["las"] },
  params,
  deterministic: true,
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 300_000 },
} satisfies ToolManifest;
