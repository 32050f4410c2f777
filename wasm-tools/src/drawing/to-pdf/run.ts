/** drawing.to-pdf: model space drawn with pdf-lib's vector operators on one fitted page. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { PDFDocument, radians, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { output, stem } from "../../runtime/context";
import { readDrawn } from "../common/drawn";
import type { Item } from "../common/flatten";
import type { Vec } from "../common/model";
import type { Params } from "./manifest";

/** Paper sizes in points, portrait. */
const PAPER: Record<Exclude<Params["paper"], "auto">, [number, number]> = {
  A4: [595.28, 841.89],
  A3: [841.89, 1190.55],
  A2: [1190.55, 1683.78],
  A1: [1683.78, 2383.94],
  A0: [2383.94, 3370.39],
  letter: [612, 792],
};
const MARGIN = 24;
const MM_TO_PT = 72 / 25.4;

function pageSize(params: Params, width: number, height: number): [number, number] {
  if (params.paper === "auto") return width >= height ? [1000, Math.max(1, (1000 * height) / width)] : [Math.max(1, (1000 * width) / height), 1000];
  const [w, h] = PAPER[params.paper];
  const landscape = params.orientation === "landscape" || (params.orientation === "auto" && width > height);
  return landscape ? [h, w] : [w, h];
}

function color(css: string) {
  const n = Number.parseInt(css.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** Text the standard font can encode (WinAnsi): other characters become "?". */
function encodable(font: PDFFont, text: string): string {
  return [...text].map((ch) => { try { font.encodeText(ch); return ch; } catch { return "?"; } }).join("");
}

function drawItem(page: PDFPage, font: PDFFont, item: Item, at: (p: Vec) => Vec, k: number) {
  const c = color(item.color);
  if (item.text) {
    const p = at(item.text.at);
    const size = Math.max(0.5, item.text.height * k);
    item.text.text.split("\n").forEach((line, i) => {
      const dy = i * size * 1.4;
      const r = item.text!.rotation;
      page.drawText(encodable(font, line), { x: p.x + dy * Math.sin(r), y: p.y - dy * Math.cos(r), size, font, color: c, rotate: radians(r) });
    });
    return;
  }
  if (item.point) {
    const p = at(item.point);
    page.drawCircle({ x: p.x, y: p.y, size: 0.6, color: c });
    return;
  }
  const d = item.runs
    .filter((run) => run.length >= 2)
    .map((run) => `M${run.map((q) => { const p = at(q); return `${p.x.toFixed(3)} ${(-p.y).toFixed(3)}`; }).join("L")}${item.filled || item.closed ? "Z" : ""}`)
    .join("");
  if (!d) return;
  // drawSvgPath flips y itself: the path is given in y-down page coordinates from the origin.
  page.drawSvgPath(d, { x: 0, y: 0, borderColor: c, borderWidth: Math.max(0.25, item.weight * MM_TO_PT), ...(item.filled ? { color: c } : {}) });
}

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const { items, bounds } = await readDrawn(input, { ...params, background: "#ffffff" }, ctx);
  ctx.onProgress(0.8, "writing PDF");
  const width = bounds.max.x - bounds.min.x || 1;
  const height = bounds.max.y - bounds.min.y || 1;
  const [pw, ph] = pageSize(params, width, height);
  const k = Math.min((pw - 2 * MARGIN) / width, (ph - 2 * MARGIN) / height);
  const ox = (pw - width * k) / 2;
  const oy = (ph - height * k) / 2;
  const at = (p: Vec): Vec => ({ x: ox + (p.x - bounds.min.x) * k, y: oy + (p.y - bounds.min.y) * k });
  const pdf = await PDFDocument.create();
  pdf.setTitle(input.name);
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const page = pdf.addPage([pw, ph]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const item of items) drawItem(page, font, item, at, k);
  return [output(`${stem(input.name)}.pdf`, "pdf", await pdf.save())];
};
