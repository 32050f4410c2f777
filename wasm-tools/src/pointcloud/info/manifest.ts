/** pointcloud.info: what a LAS/LAZ file holds, from its header and records, as JSON. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pointcloud.info",
  family: "pointcloud",
  title: "Point cloud info",
  description: "Reports a LAS or LAZ file's version, point format, point count, bounds, scale and offset, coordinate system records, colour and GPS time, as JSON. Reads the header only, so it is fast on large files.",
  io: { accepts: ["las", "laz"], produces: ["json"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Reads the header, VLRs and EVLRs only, from the host file (server) or the File's slices
  // (browser): nothing that grows with the points.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 30_000, memoryPerInputByte: 0 },
} satisfies ToolManifest;
