/** AutoCAD Color Index to RGB (dxf-parser's table) and CSS colours for a background. */
import ACI from "dxf-parser/dist/AutoCadColorIndex.js";

/** 0xRRGGBB of ACI `index` (1..255). */
export function aciRgb(index: number): number {
  return (ACI as number[])[index] ?? 0;
}

export function hex(rgb: number): string {
  return `#${(rgb & 0xffffff).toString(16).padStart(6, "0")}`;
}

/** Relative luminance in 0..1 of a #rrggbb colour (anything else counts as light). */
function luminance(css: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(css);
  if (!m) return 1;
  const n = Number.parseInt(m[1], 16);
  return (0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
}

/**
 * The CSS colour of a resolved ACI or true colour on `background`: ACI 7 is "white on black,
 * black on white" in AutoCAD, and so is any colour too close to the background to be seen.
 */
export function cssColor(aci: number, rgb: number | undefined, background: string): string {
  const light = luminance(background) > 0.5;
  if (rgb === undefined && (aci === 7 || aci <= 0 || aci >= 256)) return light ? "#000000" : "#ffffff";
  const css = hex(rgb ?? aciRgb(aci));
  const contrast = Math.abs(luminance(css) - luminance(background));
  return contrast < 0.05 ? (light ? "#000000" : "#ffffff") : css;
}
