import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pdfinfo, pdftotext, qpdfCheck, requireBinary } from "../../testing/cli";
import { makeTextPdf, pageWords } from "../../testing/pdf-fixtures";
import { expectToolError, runTool } from "../../testing/run-tool";
import { run } from "./run";

const ctx = { signal: new AbortController().signal, onProgress: () => {} };

describe("pdf.merge", () => {
  test("joins inputs in the given order", async () => {
    const inputs = [
      { name: "a.pdf", bytes: await makeTextPdf(2, "A") },
      { name: "b.pdf", bytes: await makeTextPdf(3, "B") },
      { name: "c.pdf", bytes: await makeTextPdf(1, "C") },
    ];
    const [out] = await runTool("pdf.merge", inputs);
    expect(out.name).toBe("a-merged.pdf");
    if (requireBinary("qpdf", "qpdf")) expect(qpdfCheck(out.bytes).code).toBe(0);
    if (requireBinary("pdfinfo", "poppler-utils")) {
      expect(pdfinfo(out.bytes).fields.Pages).toBe("6");
      const pages = pdftotext(out.bytes).split("\f");
      const expected = [pageWords("A", 1), pageWords("A", 2), pageWords("B", 1), pageWords("B", 2), pageWords("B", 3), pageWords("C", 1)];
      expected.forEach((words, i) => expect(pages[i]).toContain(words));
    }
  });

  test("needs two or more PDFs", async () => {
    const one = [{ name: "a.pdf", bytes: await makeTextPdf(1) }];
    await expectToolError(runTool("pdf.merge", one), "INPUT_INVALID", /at least 2|2 to/);
    await expectToolError(runTool("pdf.merge", []), "INPUT_EMPTY");
    await expectToolError(run([], {}, ctx), "INPUT_EMPTY", /no PDFs/);
  });

  test("names the input that is not a PDF", async () => {
    const inputs = [
      { name: "a.pdf", bytes: await makeTextPdf(1) },
      { name: "photo.pdf", bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) },
    ];
    await expectToolError(runTool("pdf.merge", inputs), "INPUT_INVALID", /photo\.pdf/);
  });
});
