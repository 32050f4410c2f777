/** bim.ifc-properties: every element's GlobalId, type, Name and property sets, as JSON or CSV. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    format: Type.Union([Type.Literal("json"), Type.Literal("csv")], {
      default: "json",
      description: "json: one object per element with its property sets; csv: one row per property (GlobalId, type, Name, set, property, value), one row for an element without properties",
    }),
    includeTypeProperties: Type.Boolean({ default: true, description: "Also list the property sets an element gets from its type object (IfcWallType ...)" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "bim.ifc-properties",
  family: "bim",
  title: "IFC properties",
  description: "Lists every element of an IFC model (walls, doors, spaces, storeys ...) with its GlobalId, IFC type, Name and all its property and quantity sets, as JSON or as a flat CSV table for spreadsheets.",
  io: { accepts: ["ifc"], produces: ["json", "csv"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // web-ifc holds the whole model (its token tape, about the file's size, and its line index), but
  // reads the file through a callback from the host file or the picked File, and the JSON or CSV
  // is written an element at a time (as UTF-8, not as objects and strings). The process's peak grew
  // 3.4x the input on a model of walls made in code (wasm-tools/src/testing/big-ifc.ts) of 152 MB, 3.2x at 511
  // MB and 3.0x at 985 MB (+3.0 GB; 12.7x at 200 MB before); 2.3x the input's growth on 10 and 41 MB
  // copies of FZK-Haus (bun bench/tools-big/per-byte.ts, PER_BYTE_SCALE=4; 1.9x at 2.5 and 10 MB).
  // 1 GiB keeps one job within about 3.5 GB.
  limits: { maxInputBytes: 1024 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 3.4 },
} satisfies ToolManifest;
