/** pdf.render-png with mupdf's rasteriser. */
import { ToolError, type ToolOutput, type ToolRun } from "@vektor/shared/tools/manifest";
import { errorMessage, stem, yieldAndCheck } from "../../runtime/context";
import { openWithMupdf } from "../common/open";
import { emitOutput } from "../common/write";
import { selectPages } from "../common/pages";
import type { Params } from "./manifest";

/** Largest image one page may become (keeps a huge page at 300 dpi from exhausting WASM memory). */
export const MAX_PIXELS = 100_000_000;

export const run: ToolRun<Params> = async ([input], { dpi, pages, alpha }, ctx) => {
  const pdf = await openWithMupdf(input);
  try {
    const { lib, doc } = pdf;
    const selected = selectPages(pages, pdf.pageCount);
    const scale = dpi / 72;
    const base = stem(input.name);
    const outputs: ToolOutput[] = [];
    for (const [i, index] of selected.entries()) {
      await yieldAndCheck(ctx);
      const page = doc.loadPage(index);
      try {
        const [x0, y0, x1, y1] = page.getBounds();
        const pixels = Math.ceil((x1 - x0) * scale) * Math.ceil((y1 - y0) * scale);
        if (pixels > MAX_PIXELS) {
          throw new ToolError("INPUT_TOO_LARGE", `Page ${index + 1} would be ${pixels} pixels at ${dpi} dpi (limit ${MAX_PIXELS}); choose a lower dpi`);
        }
        let png: Uint8Array;
        try {
          const pixmap = page.toPixmap(lib.Matrix.scale(scale, scale), lib.ColorSpace.DeviceRGB, alpha, true);
          png = pixmap.asPNG().slice();
          pixmap.destroy();
        } catch (err) {
          throw new ToolError("INPUT_INVALID", `Page ${index + 1} of "${input.name}" could not be rendered: ${errorMessage(err)}`);
        }
        outputs.push(await emitOutput(ctx, `${base}-p${index + 1}.png`, "png", png, true));
      } finally {
        page.destroy();
      }
      ctx.onProgress((i + 1) / selected.length, `page ${index + 1}`);
    }
    return outputs;
  } finally {
    pdf.close();
  }
};
