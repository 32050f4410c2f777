/** pdf.rotate: turn pages by a quarter, half or three-quarter turn. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { pageRangesParam } from "../common/pages";

export const params = Type.Object(
  {
    degrees: Type.Union([Type.Literal(90), Type.Literal(180), Type.Literal(270)], {
      default: 90,
      description: "Clockwise rotation added to each selected page's current rotation",
    }),
    pages: pageRangesParam('Pages to rotate, e.g. "1-3,5". Omitted: every page.'),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.rotate",
  family: "pdf",
  title: "Rotate PDF pages",
  description: "Rotates all or selected pages clockwise by 90, 180 or 270 degrees.",
  io: { accepts: ["pdf"], produces: ["pdf"], hostFiles: true },
  params,
  deterministic: true,
  // mupdf holds the document and writes the new one in memory (the worker peaked 7.1x the input
  // rotating a 48 MB PDF of scanned pages: BENCH_TOOLS_BIG=1 npm run bench -- tools).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 60_000, memoryPerInputByte: 7.1 },
} satisfies ToolManifest;
