/** pdf.extract-text with mupdf's structured text. */
import { ToolError, type ToolOutput, type ToolRun } from "@vektor/shared/tools/manifest";
import { errorMessage, jsonBytes, output, stem, yieldAndCheck } from "../../runtime/context";
import { openWithMupdf } from "../common/open";
import { selectPages } from "../common/pages";
import type { Params } from "./manifest";

/** One page's text in the JSON output. */
export interface PageText {
  number: number;
  text: string;
}

export const run: ToolRun<Params> = async ([input], { format, pages }, ctx) => {
  const pdf = await openWithMupdf(input);
  const texts: PageText[] = [];
  try {
    const selected = selectPages(pages, pdf.pageCount);
    for (const [i, index] of selected.entries()) {
      await yieldAndCheck(ctx);
      const page = pdf.doc.loadPage(index);
      try {
        const structured = page.toStructuredText("preserve-whitespace");
        texts.push({ number: index + 1, text: structured.asText() });
        structured.destroy();
      } catch (err) {
        throw new ToolError("INPUT_INVALID", `Page ${index + 1} of "${input.name}" could not be read: ${errorMessage(err)}`);
      } finally {
        page.destroy();
      }
      ctx.onProgress((i + 1) / selected.length, `page ${index + 1}`);
    }
  } finally {
    pdf.close();
  }
  const base = stem(input.name);
  const outputs: ToolOutput[] = [];
  if (format !== "json") outputs.push(output(`${base}.txt`, "txt", new TextEncoder().encode(texts.map((p) => p.text).join("\f"))));
  if (format !== "txt") outputs.push(output(`${base}.json`, "json", jsonBytes({ pages: texts })));
  return outputs;
};
