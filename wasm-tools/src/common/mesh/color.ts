/** Colour helpers for reports: linear RGB (what the libraries and glTF use) to the sRGB hex people read. */
import type { Rgba } from "./types";

function toSrgb(linear: number): number {
  const c = Math.min(1, Math.max(0, linear));
  return c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
}

function hex2(value: number): string {
  return Math.round(toSrgb(value) * 255)
    .toString(16)
    .padStart(2, "0");
}

/** `#rrggbb` (sRGB) of a linear colour; alpha is left out. */
export function hexColor(color: Rgba): string {
  return `#${hex2(color.r)}${hex2(color.g)}${hex2(color.b)}`;
}

/** A linear RGB triple with alpha 1 (or the given alpha). */
export function rgba(rgb: readonly number[], a = 1): Rgba {
  return { r: rgb[0], g: rgb[1], b: rgb[2], a };
}

/** A display (sRGB) channel in 0..1 as linear light, for glTF's baseColorFactor. */
export function srgbToLinear(srgb: number): number {
  const c = Math.min(1, Math.max(0, Number.isFinite(srgb) ? srgb : 0));
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
