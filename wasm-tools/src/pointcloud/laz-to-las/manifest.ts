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
  io: { accepts: ["laz"], produces: ["las"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Decoded a chunk at a time into a host file on the server (flat memory). The browser reads the
  // File in slices but builds the LAS in memory (~6x the LAZ): 7.1x measured.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 1_200_000, memoryPerInputByte: 7.1 },
} satisfies ToolManifest;
