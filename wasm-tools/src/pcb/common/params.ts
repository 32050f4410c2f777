/** Schema pieces the PCB tools share. */
import { Type } from "@sinclair/typebox";

/** A CSS colour safe to put in an SVG attribute or style: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a colour keyword. */
export const CssColor = Type.String({
  pattern: "^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|[a-zA-Z]{3,20})$",
  examples: ["#cc9933", "darkgreen"],
  description: "A colour: #rgb, #rrggbb, #rrggbbaa or a CSS keyword",
});

/** Units assumed when a file does not declare them (old Excellon drill files often do not). */
export const BackupUnits = Type.Union([Type.Literal("in"), Type.Literal("mm")], {
  default: "in",
  description: "Units to assume when a file does not say (common in older drill files)",
});
