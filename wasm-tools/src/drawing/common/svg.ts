/**
 * Drawn items as an SVG: y flipped (drawings are y-up), one <g> per layer with its entities in
 * file order, line weights at their real width in millimetres on screen (non-scaling strokes:
 * a drawing kilometres wide would otherwise show hairlines or nothing).
 */
import type { Item } from "./flatten";
import type { Vec } from "./model";

const MM_TO_PX = 96 / 25.4;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

/** Enough digits for the drawing's size, no float noise. */
function formatter(span: number): (v: number) => string {
  const digits = Math.max(0, Math.min(9, 6 - Math.floor(Math.log10(span || 1))));
  return (v: number) => String(Number(v.toFixed(digits)) || 0);
}

/** Path data; points that round to the one before them are left out (dense bulge runs on a wide drawing). */
export function pathData(runs: Vec[][], closed: boolean, f: (v: number) => string): string {
  return runs
    .filter((run) => run.length)
    .map((run) => {
      const points = run.map((p) => `${f(p.x)} ${f(-p.y)}`).filter((p, i, all) => i === 0 || p !== all[i - 1]);
      return `M${points.join("L")}${closed ? "Z" : ""}`;
    })
    .join("");
}

function itemSvg(item: Item, f: (v: number) => string): string {
  const data = `data-entity="${item.entity}"${item.handle ? ` data-handle="${escapeXml(item.handle)}"` : ""}`;
  if (item.text) {
    const { at, height, rotation, text } = item.text;
    const lines = text.split("\n");
    const deg = Number(((-rotation * 180) / Math.PI).toFixed(3)) || 0;
    const spans = lines.map((line, i) => `<tspan x="0" dy="${i === 0 ? 0 : f(height * 1.4)}">${escapeXml(line)}</tspan>`).join("");
    return `<text ${data} transform="translate(${f(at.x)} ${f(-at.y)}) rotate(${deg})" font-size="${f(height)}" fill="${item.color}" stroke="none">${spans}</text>`;
  }
  // A point is a dot of fixed screen size (a zero-length round-capped stroke), whatever the drawing's scale.
  if (item.point) return `<path ${data} d="M${f(item.point.x)} ${f(-item.point.y)}h0" fill="none" stroke="${item.color}" stroke-width="3"/>`;
  const d = pathData(item.runs, item.closed || item.filled, f);
  if (!d) return "";
  const fill = item.filled ? `fill="${item.color}" fill-rule="evenodd"` : `fill="none"`;
  const width = Number(Math.max(0.5, item.weight * MM_TO_PX).toFixed(2));
  return `<path ${data} d="${d}" ${fill} stroke="${item.color}" stroke-width="${width}"/>`;
}

export function toSvg(items: Item[], bounds: { min: Vec; max: Vec }, background: string, title: string): string {
  const width = bounds.max.x - bounds.min.x || 1;
  const height = bounds.max.y - bounds.min.y || 1;
  const margin = Math.max(width, height) * 0.02;
  const f = formatter(Math.max(width, height));
  const [x, y, w, h] = [bounds.min.x - margin, -bounds.max.y - margin, width + 2 * margin, height + 2 * margin];
  // Outer size at most 1000 px on the long side, the drawing's proportions kept.
  const px = 1000 / Math.max(w, h);
  const byLayer = new Map<string, Item[]>();
  for (const item of items) byLayer.set(item.layer, [...(byLayer.get(item.layer) ?? []), item]);
  const groups = [...byLayer].map(([layer, members]) => {
    const body = members.map((item) => itemSvg(item, f)).filter(Boolean).join("\n");
    return `<g data-layer="${escapeXml(layer)}" vector-effect="non-scaling-stroke">\n${body}\n</g>`;
  });
  const bg = background === "none" ? "" : `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${background}"/>\n`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${f(x)} ${f(y)} ${f(w)} ${f(h)}" width="${Math.round(w * px)}" height="${Math.round(h * px)}" stroke-linecap="round" stroke-linejoin="round" font-family="sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    `<style>path{vector-effect:non-scaling-stroke}</style>`,
    `${bg}${groups.join("\n")}`,
    `</svg>`,
    "",
  ].join("\n");
}
