/** pdf.rotate with mupdf: adds to each selected page's /Rotate, inherited values included. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, output, stem } from "../../runtime/context";
import { openWithMupdf } from "../common/open";
import { selectPages } from "../common/pages";
import { saveBytes } from "../common/write";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], { degrees, pages }, ctx) => {
  const pdf = await openWithMupdf(input);
  try {
    for (const index of selectPages(pages, pdf.pageCount)) {
      const page = pdf.doc.findPage(index);
      const inherited = page.getInheritable("Rotate");
      const current = inherited.isNull() ? 0 : Math.round(inherited.asNumber());
      // Written on the page itself, so pages sharing an inherited /Rotate turn independently.
      page.put("Rotate", (((current + degrees) % 360) + 360) % 360);
    }
    checkpoint(ctx);
    return [output(`${stem(input.name)}-rotated.pdf`, "pdf", saveBytes(pdf.doc, input.name))];
  } finally {
    pdf.close();
  }
};
