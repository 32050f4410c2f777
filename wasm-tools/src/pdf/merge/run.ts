/** pdf.merge with mupdf: every page of every input, in order, grafted into a new document. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, stem } from "../../runtime/context";
import { openWithMupdf } from "../common/open";
import { loadMupdf } from "../init";
import { appendPages, savePdf } from "../common/write";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async (inputs, _params, ctx) => {
  if (inputs.length === 0) throw new ToolError("INPUT_EMPTY", "Nothing to merge: no PDFs were given");
  const merged = new (await loadMupdf()).PDFDocument();
  try {
    for (const [i, input] of inputs.entries()) {
      checkpoint(ctx);
      const source = await openWithMupdf(input);
      try {
        appendPages(merged, source.doc, Array.from({ length: source.pageCount }, (_, k) => k));
      } finally {
        source.close();
      }
      ctx.onProgress((i + 1) / (inputs.length + 1), `added ${input.name}`);
    }
    checkpoint(ctx);
    return [await savePdf(merged, ctx, inputs[0].name, `${stem(inputs[0].name)}-merged.pdf`)];
  } finally {
    merged.destroy();
  }
};
