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
  io: { accepts: ["pdf"], produces: ["pdf"], minInputs: 2, maxInputs: 100, hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // mupdf copies every page grafted into the merged document and builds the new file in its heap
  // (2 GiB at most). Memory per input byte on this device (bytes): Chromium's renderer peak grew
  // 4.0x the inputs' growth merging two 16 MB, then two 64 MB PDFs of scanned pages, read from the
  // picked Files (2026-11-26, bun bench/web-pdf-memory.ts; 4.7x was measured on whole bytes in a
  // server worker, bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 4.0 },
} satisfies ToolManifest;
