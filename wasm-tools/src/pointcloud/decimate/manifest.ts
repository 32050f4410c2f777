/** pointcloud.decimate: keep an evenly spaced subset of the points. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    every: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10, description: "Keep one point in every N (1 keeps all)" }),
    fraction: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 1, description: "Keep this share of the points, evenly spaced; takes precedence over `every`" }),
    ),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pointcloud.decimate",
  family: "pointcloud",
  title: "Thin out a point cloud",
  description: "Keeps every Nth point (or a fraction of the points, evenly spaced) of a LAS or LAZ file and writes LAS with the header's point count, returns and bounds recomputed.",
  io: { accepts: ["las", "laz"], produces: ["las"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Read block by block (LAZ chunk by chunk) and written as it goes to a host file on the server
  // (flat memory); the browser reads the File in slices and holds the kept points: every 10th
  // point of a LAZ peaked 2.4x the input (its LAS records are ~6x the LAZ), of a LAS 0.6x.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 1_200_000, memoryPerInputByte: 2.4 },
} satisfies ToolManifest;
