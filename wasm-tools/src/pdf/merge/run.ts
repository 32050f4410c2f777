/** pdf.merge with pdf-lib: copy every page of every input, in order, into a new document. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { PDFDocument } from "pdf-lib";
import { checkpoint, output, stem } from "../../runtime/context";
import { openWithPdfLib } from "../common/open";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async (inputs, _params, ctx) => {
  if (inputs.length === 0) throw new ToolError("INPUT_EMPTY", "Nothing to merge: no PDFs were given");
  const merged = await PDFDocument.create({ updateMetadata: false });
  for (const [i, input] of inputs.entries()) {
    checkpoint(ctx);
    const source = await openWithPdfLib(input);
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
    ctx.onProgress((i + 1) / (inputs.length + 1), `added ${input.name}`);
  }
  checkpoint(ctx);
  const bytes = await merged.save();
  return [output(`${stem(inputs[0].name)}-merged.pdf`, "pdf", bytes)];
};
