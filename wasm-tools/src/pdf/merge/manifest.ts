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
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 120_000 },
} satisfies ToolManifest;
