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
  io: { accepts: ["laz"], produces: ["las"], hostFiles: true },
  params,
  deterministic: true,
  // Decoded a chunk at a time into a host file (the server: flat memory). Given bytes (the
  // browser), the LAS is built in memory: ~6x the LAZ plus the LAZ, 7.6x measured.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 1_200_000, memoryPerInputByte: 8 },
} satisfies ToolManifest;
