/** pdf.merge: several PDFs into one, in the order given. */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.merge",
  family: "pdf",
  title: "Merge PDFs",
  description: "Joins two or more PDFs into one, keeping the order of the inputs and of their pages.",
  io: { accepts: ["pdf"], produces: ["pdf"], minInputs: 2, maxInputs: 100, hostFiles: true },
  params,
  deterministic: true,
  // Memory per input byte, in the browser (bytes): the documents and the merged one are held in
  // memory: the worker's peak grew 7.5x the inputs' growth merging two 4 MB, then two 16 MB PDFs of
  // scanned pages (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 7.5 },
} satisfies ToolManifest;
