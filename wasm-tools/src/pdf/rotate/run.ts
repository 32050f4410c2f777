/** pdf.rotate with pdf-lib: adds to each selected page's /Rotate. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { degrees as toDegrees } from "pdf-lib";
import { checkpoint, output, stem } from "../../runtime/context";
import { openWithPdfLib } from "../common/open";
import { selectPages } from "../common/pages";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], { degrees, pages }, ctx) => {
  const doc = await openWithPdfLib(input);
  const all = doc.getPages();
  for (const index of selectPages(pages, all.length)) {
    const page = all[index];
    const current = ((page.getRotation().angle % 360) + 360) % 360;
    page.setRotation(toDegrees((current + degrees) % 360));
  }
  checkpoint(ctx);
  return [output(`${stem(input.name)}-rotated.pdf`, "pdf", await doc.save())];
};
