import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pdfinfo, pdftotext, qpdfCheck, requireBinary } from "../../testing/cli";
import { makeInheritedRotationPdf, makeTextPdf, pageWords } from "../../testing/pdf-fixtures";
import { expectToolError, runTool } from "../../testing/run-tool";

const five = async () => [{ name: "report.pdf", bytes: await makeTextPdf(5, "S") }];

describe("pdf.split", () => {
  test("one PDF per page by default", async () => {
    const outs = await runTool("pdf.split", await five());
    expect(outs.map((o) => o.name)).toEqual(["report-p1.pdf", "report-p2.pdf", "report-p3.pdf", "report-p4.pdf", "report-p5.pdf"]);
    if (requireBinary("pdfinfo", "poppler-utils")) {
      outs.forEach((out, i) => {
        expect(pdfinfo(out.bytes).fields.Pages).toBe("1");
        expect(pdftotext(out.bytes)).toContain(pageWords("S", i + 1));
      });
    }
  });

  test("one PDF per range, open-ended ranges run to the end", async () => {
    const outs = await runTool("pdf.split", await five(), { ranges: "1-2, 4-" });
    expect(outs.map((o) => o.name)).toEqual(["report-p1-2.pdf", "report-p4-5.pdf"]);
    if (requireBinary("qpdf", "qpdf")) for (const out of outs) expect(qpdfCheck(out.bytes).code).toBe(0);
    if (requireBinary("pdftotext", "poppler-utils")) {
      const second = pdftotext(outs[1].bytes).split("\f");
      expect(second[0]).toContain(pageWords("S", 4));
      expect(second[1]).toContain(pageWords("S", 5));
      expect(pdfinfo(outs[1].bytes).fields.Pages).toBe("2");
    }
  });

  test("keeps an inherited rotation and gives the same bytes every run", async () => {
    const input = [{ name: "r.pdf", bytes: await makeInheritedRotationPdf(2, 270) }];
    const first = await runTool("pdf.split", input);
    const second = await runTool("pdf.split", input);
    expect(second.map((o) => o.bytes)).toEqual(first.map((o) => o.bytes));
    if (requireBinary("pdfinfo", "poppler-utils")) expect(pdfinfo(first[1].bytes, ["-f", "1", "-l", "1"]).fields["Page    1 rot"]).toBe("270");
  });

  test("rejects ranges beyond the document and malformed ranges", async () => {
    await expectToolError(runTool("pdf.split", await five(), { ranges: "2-7" }), "PARAMS_INVALID", /last page \(5\)/);
    await expectToolError(runTool("pdf.split", await five(), { ranges: "3-1" }), "PARAMS_INVALID", /before the start/);
    await expectToolError(runTool("pdf.split", await five(), { ranges: "one,two" }), "PARAMS_INVALID", /ranges/);
  });
});
