/** pdf.split with mupdf: each range's pages grafted into a document of its own. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, stem } from "../../runtime/context";
import { openWithMupdf } from "../common/open";
import { parsePageRanges, type PageRange } from "../common/pages";
import { appendPages, savePdf } from "../common/write";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], { ranges }, ctx) => {
  const source = await openWithMupdf(input);
  try {
    const count = source.pageCount;
    const parts: PageRange[] = ranges === undefined ? Array.from({ length: count }, (_, i) => ({ from: i + 1, to: i + 1 })) : parsePageRanges(ranges, count);
    const base = stem(input.name);
    const outputs = [];
    for (const [i, { from, to }] of parts.entries()) {
      checkpoint(ctx);
      const part = new source.lib.PDFDocument();
      try {
        appendPages(part, source.doc, Array.from({ length: to - from + 1 }, (_, k) => from - 1 + k));
        const label = from === to ? `p${from}` : `p${from}-${to}`;
        outputs.push(await savePdf(part, ctx, input.name, `${base}-${label}.pdf`));
        ctx.onProgress((i + 1) / parts.length, label);
      } finally {
        part.destroy();
      }
    }
    return outputs;
  } finally {
    source.close();
  }
};
