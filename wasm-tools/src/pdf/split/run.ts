/** pdf.split with pdf-lib: each range's pages copied into a document of its own. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { PDFDocument } from "pdf-lib";
import { checkpoint, output, stem } from "../../runtime/context";
import { openWithPdfLib } from "../common/open";
import { parsePageRanges, type PageRange } from "../common/pages";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], { ranges }, ctx) => {
  const source = await openWithPdfLib(input);
  const count = source.getPageCount();
  const parts: PageRange[] = ranges === undefined ? Array.from({ length: count }, (_, i) => ({ from: i + 1, to: i + 1 })) : parsePageRanges(ranges, count);
  const base = stem(input.name);
  const outputs = [];
  for (const [i, { from, to }] of parts.entries()) {
    checkpoint(ctx);
    const part = await PDFDocument.create({ updateMetadata: false });
    const indices = Array.from({ length: to - from + 1 }, (_, k) => from - 1 + k);
    for (const page of await part.copyPages(source, indices)) part.addPage(page);
    const label = from === to ? `p${from}` : `p${from}-${to}`;
    outputs.push(output(`${base}-${label}.pdf`, "pdf", await part.save()));
    ctx.onProgress((i + 1) / parts.length, label);
  }
  return outputs;
};
