/**
 * The app's icons, drawn by code at build time (no binary files in the repository): a white
 * chevron on the theme colour, as PNGs at 192 and 512 px in two kinds. `any` icons fill the
 * square; `maskable` ones keep the mark inside the central 60 %, the safe zone a launcher's mask
 * never cuts (https://w3c.github.io/manifest/#icon-masks).
 */
import { PNG } from "pngjs";
import type { Plugin } from "vite";

export const THEME_COLOR = "#1e3a8a";
const BACKGROUND: [number, number, number] = [0x1e, 0x3a, 0x8a];
const MARK: [number, number, number] = [0xff, 0xff, 0xff];

export const ICONS = [
  { src: "icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
  { src: "icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;

/** Distance from (px, py) to the segment (ax, ay)-(bx, by). */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** A `size` px PNG: the "V" mark scaled to `scale` of the side, anti-aliased over one pixel. */
export function drawIcon(size: number, scale: number): Buffer {
  const png = new PNG({ width: size, height: size });
  const half = (scale * size) / 2;
  const c = size / 2;
  const stroke = size * scale * 0.11;
  const left = [c - half * 0.8, c - half * 0.7] as const;
  const bottom = [c, c + half * 0.7] as const;
  const right = [c + half * 0.8, c - half * 0.7] as const;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const d = Math.min(segmentDistance(px, py, ...left, ...bottom), segmentDistance(px, py, ...bottom, ...right));
      const cover = Math.max(0, Math.min(1, stroke - d + 0.5));
      const i = (y * size + x) * 4;
      for (let k = 0; k < 3; k++) png.data[i + k] = Math.round(BACKGROUND[k] * (1 - cover) + MARK[k] * cover);
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/**
 * The same mark as a small SVG, the page's favicon: a few hundred bytes the service worker keeps
 * for offline use, where the PNGs (for installing) are 30 KB.
 */
export const FAVICON = "icons/icon.svg";
export function drawSvgIcon(scale = 0.8): string {
  const half = (scale * 100) / 2;
  const points = [
    [50 - half * 0.8, 50 - half * 0.7],
    [50, 50 + half * 0.7],
    [50 + half * 0.8, 50 - half * 0.7],
  ].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`);
  const stroke = (2 * 100 * scale * 0.11).toFixed(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="${THEME_COLOR}"/><polyline points="${points.join(" ")}" fill="none" stroke="#fff" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round"/></svg>\n`;
}

/** Emits ICONS and the favicon into the build (the PWA plugin's manifest names the PNGs). */
export function appIcons(): Plugin {
  return {
    name: "vektor:app-icons",
    apply: "build",
    generateBundle() {
      for (const icon of ICONS) {
        const size = Number(icon.sizes.split("x")[0]);
        this.emitFile({ type: "asset", fileName: icon.src, source: drawIcon(size, icon.purpose === "maskable" ? 0.6 : 0.8) });
      }
      this.emitFile({ type: "asset", fileName: FAVICON, source: drawSvgIcon() });
    },
  };
}
