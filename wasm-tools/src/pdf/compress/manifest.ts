/** pdf.compress: rewrite a PDF smaller (flate streams, drop and deduplicate objects, object streams). */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    level: Type.Integer({
      minimum: 1,
      maximum: 9,
      default: 6,
      description: "1 = quick (compress streams), 6 = also deduplicate objects and pack object streams, 9 = also rewrite content streams",
    }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.compress",
  family: "pdf",
  title: "Compress PDF",
  description: "Makes a PDF smaller without changing how it looks: compresses streams, removes unused and duplicate objects, and packs objects into object streams. The file is returned unchanged if it cannot be made smaller.",
  io: { accepts: ["pdf"], produces: ["pdf"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // mupdf builds the new file in a buffer in its heap, which ends at 2 GiB (a 560 MB PDF could not
  // be rewritten, 504 MB could), and from level 6 (garbage=4) holds the input there too. Memory per
  // input byte on this device (bytes): Chromium's renderer peak grew 6.7x the input's growth at
  // level 9 (5.3x at level 6, the default) between 32 and 128 MB PDFs of scanned pages, read from
  // the picked File (2026-11-26, bun bench/web-pdf-memory.ts); higher than the 4.7x measured on
  // whole bytes in a server worker (bench/tools-big/per-byte.ts), so the browser's figure is kept.
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 6.7 },
} satisfies ToolManifest;
