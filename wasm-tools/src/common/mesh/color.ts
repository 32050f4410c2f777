/**
 * Colour helpers: display (sRGB) values to linear light for glTF's baseColorFactor, and linear
 * RGB to the sRGB hex people read. The transfer curve's powers are computed with + - * / only
 * (Newton's method, a fixed number of steps), because Math.pow may differ in the last bit
 * between JavaScript engines and outputs must be the same bytes in a browser and on the server.
 */
import type { Rgba } from "./types";

/** The n-th root of `a` in (0, 1], by Newton's method from 1 (exactly repeatable in every engine). */
function root(a: number, n: number): number {
  let r = 1;
  for (let i = 0; i < 200; i++) {
    let p = 1;
    for (let k = 1; k < n; k++) p *= r;
    const next = ((n - 1) * r + a / p) / n;
    if (next >= r) break; // converged: Newton approaches the root from above
    r = next;
  }
  return r;
}

/** `x` (in 0..1) to the power 2.4 = x^2 times the fifth root of x^2. */
function pow24(x: number): number {
  const x2 = x * x;
  return x2 * root(x2, 5);
}

/** `x` (in 0..1) to the power 1/2.4 = the twelfth root of x^5. */
function pow1over24(x: number): number {
  return root(x * x * x * x * x, 12);
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

/** A display (sRGB) channel in 0..1 as linear light. */
export function srgbToLinear(srgb: number): number {
  const c = clamp01(srgb);
  return c <= 0.04045 ? c / 12.92 : pow24((c + 0.055) / 1.055);
}

/** A linear channel in 0..1 as a display (sRGB) value. */
export function linearToSrgb(linear: number): number {
  const c = clamp01(linear);
  return c <= 0.0031308 ? c * 12.92 : 1.055 * pow1over24(c) - 0.055;
}

function hex2(value: number): string {
  return Math.round(linearToSrgb(value) * 255)
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
