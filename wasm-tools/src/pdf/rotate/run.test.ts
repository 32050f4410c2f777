import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pdfinfo, qpdfCheck, requireBinary } from "../../testing/cli";
import { makeInheritedRotationPdf, makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError, runTool } from "../../testing/run-tool";

/** Rotation of each page as poppler reads it. */
function rotations(bytes: Uint8Array, pages: number): number[] {
  const { fields } = pdfinfo(bytes, ["-f", "1", "-l", String(pages)]);
  return Array.from({ length: pages }, (_, i) => Number(fields[`Page ${String(i + 1).padStart(4)} rot`]));
}

describe("pdf.rotate", () => {
  test("rotates only the selected pages", async () => {
    const [out] = await runTool("pdf.rotate", [{ name: "r.pdf", bytes: await makeTextPdf(3) }], { degrees: 90, pages: "2" });
    expect(out.name).toBe("r-rotated.pdf");
    if (requireBinary("qpdf", "qpdf")) expect(qpdfCheck(out.bytes).code).toBe(0);
    if (requireBinary("pdfinfo", "poppler-utils")) expect(rotations(out.bytes, 3)).toEqual([0, 90, 0]);
  });

  test("adds to the current rotation, all pages by default", async () => {
    const [once] = await runTool("pdf.rotate", [{ name: "r.pdf", bytes: await makeTextPdf(2) }], { degrees: 270 });
    const [twice] = await runTool("pdf.rotate", [{ name: "r.pdf", bytes: once.bytes }], { degrees: 180 });
    if (requireBinary("pdfinfo", "poppler-utils")) {
      expect(rotations(once.bytes, 2)).toEqual([270, 270]);
      expect(rotations(twice.bytes, 2)).toEqual([90, 90]);
    }
  });

  test("adds to a rotation inherited from the page tree, page by page", async () => {
    const input = [{ name: "r.pdf", bytes: await makeInheritedRotationPdf(3, 90) }];
    const [out] = await runTool("pdf.rotate", input, { degrees: 180, pages: "1,3" });
    if (requireBinary("pdfinfo", "poppler-utils")) {
      expect(rotations(input[0].bytes, 3)).toEqual([90, 90, 90]);
      expect(rotations(out.bytes, 3)).toEqual([270, 90, 270]);
    }
    const [again] = await runTool("pdf.rotate", input, { degrees: 180, pages: "1,3" });
    expect(again.bytes).toEqual(out.bytes);
  });

  test("accepts only quarter turns", async () => {
    const input = [{ name: "r.pdf", bytes: await makeTextPdf(1) }];
    const error = await expectToolError(runTool("pdf.rotate", input, { degrees: 45 }), "PARAMS_INVALID", /degrees/);
    expect(error.message).toContain("90, 180, 270");
  });
});
