/** pcb.render-board: a ZIP of Gerber and drill files -> top and bottom views of the board (pcb-stackup-core). */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { BackupUnits, CssColor } from "../common/params";

const colour = (what: string) => Type.Optional({ ...CssColor, description: `Colour of the ${what}` });

export const params = Type.Object(
  {
    side: Type.Union([Type.Literal("both"), Type.Literal("top"), Type.Literal("bottom")], {
      default: "both",
      description: "Which side(s) to render; both gives two SVGs, top first",
    }),
    color: Type.Object(
      {
        fr4: colour("board substrate"),
        cu: colour("exposed copper"),
        cf: colour("copper finish (pads under no soldermask)"),
        sm: colour("soldermask"),
        ss: colour("silkscreen"),
        sp: colour("solderpaste"),
        out: colour("board outline"),
      },
      { additionalProperties: false, default: {}, description: "Colours by layer kind; pcb-stackup's defaults for any left out (green mask, white silk, gold finish)" },
    ),
    useOutline: Type.Boolean({ default: true, description: "Cut the board to the outline layer's shape when there is one" }),
    outlineGapFill: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.00011, description: "Largest gap in mm to close in the outline" }),
    backupUnits: BackupUnits,
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pcb.render-board",
  family: "pcb",
  title: "Render PCB",
  description: "Renders a board from a ZIP of its Gerber and drill files as it will look when made: top and bottom views as SVG at real size. Layers are recognised by their file names (KiCad, Eagle, Altium, Protel and other common conventions).",
  io: { accepts: ["gerber-zip", "zip"], produces: ["svg"] },
  params,
  deterministic: true,
  // Memory per input byte: the parsed layers and the SVG are held in memory; the worker's peak grew
  // 36x the input's growth on 1.7 and 7 MB board ZIPs (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 128 * 1024 * 1024, timeoutMs: 180_000, memoryPerInputByte: 36 },
} satisfies ToolManifest;
