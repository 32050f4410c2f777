/** bim.ifc-info: schema, header, element counts per type and the spatial tree of an IFC model, as JSON. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "bim.ifc-info",
  family: "bim",
  title: "IFC model info",
  description: "Reports what an IFC model holds as JSON: its schema and header (authoring application, date), how many elements of each IFC type it has, its spatial tree (project, sites, buildings, storeys with names and elevations) and how many elements have geometry.",
  io: { accepts: ["ifc"], produces: ["json"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // web-ifc holds the whole model (its token tape, about the file's size, and its line index), but
  // reads the file through a callback from the host file or the picked File, so the input is not
  // held again beside it; the tool keeps only counts and the spatial tree. The process's peak
  // grew 1.9x the input on a model of walls made in code (wasm-tools/src/testing/big-ifc.ts) of 306 MB (+0.6 GB;
  // 11.6x before), 2.0x at 152 MB and at 985 MB (+2.0 GB); 1.3x the input's growth on 10 and 41 MB
  // copies of FZK-Haus (bun bench/tools-big/per-byte.ts, PER_BYTE_SCALE=4; 3.8x at 2.5 and 10 MB,
  // where the engine's first allocations weigh more). 1 GiB keeps one job within about 2.5 GB.
  limits: { maxInputBytes: 1024 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 2.1 },
} satisfies ToolManifest;
