import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pdfinfo, qpdfCheck, requireBinary } from "../../testing/cli";
import { makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError, runTool, text } from "../../testing/run-tool";
import type { PdfMetadata } from "./run";

describe("pdf.metadata", () => {
  test("reads version, pages and the Info dictionary as JSON", async () => {
    const bytes = await makeTextPdf(2, "Meta", [
      [595, 842],
      [842, 595],
    ]);
    const [out] = await runTool("pdf.metadata", [{ name: "m.pdf", bytes }]);
    expect(out.name).toBe("m-metadata.json");
    expect(out.mime).toBe("application/json");
    const meta = JSON.parse(text(out)) as PdfMetadata;
    expect(meta.pageCount).toBe(2);
    expect(meta.title).toBe("Meta title");
    expect(meta.author).toBe("Fixture Author");
    expect(meta.pdfVersion).toBe("1.7");
    expect(meta.pages).toEqual([
      { number: 1, width: 595, height: 842, rotation: 0 },
      { number: 2, width: 842, height: 595, rotation: 0 },
    ]);
    if (requireBinary("pdfinfo", "poppler-utils")) expect(pdfinfo(bytes).fields.Title).toBe(meta.title ?? "");
  });

  test("sets title, author, subject and keywords", async () => {
    const params = { title: "Bridge – survey", author: "Ada", subject: "Piers", keywords: "steel, concrete" };
    const [out] = await runTool("pdf.metadata", [{ name: "m.pdf", bytes: await makeTextPdf(1) }], params);
    expect(out.name).toBe("m-metadata.pdf");
    expect(out.mime).toBe("application/pdf");
    if (requireBinary("qpdf", "qpdf")) expect(qpdfCheck(out.bytes).code).toBe(0);
    if (requireBinary("pdfinfo", "poppler-utils")) {
      const { fields } = pdfinfo(out.bytes);
      expect(fields.Title).toBe("Bridge – survey");
      expect(fields.Author).toBe("Ada");
      expect(fields.Subject).toBe("Piers");
      expect(fields.Keywords).toBe("steel, concrete");
    }
    const [reread] = await runTool("pdf.metadata", [{ name: "m.pdf", bytes: out.bytes }]);
    expect((JSON.parse(text(reread)) as PdfMetadata).title).toBe("Bridge – survey");
  });

  test("rejects unknown fields", async () => {
    await expectToolError(runTool("pdf.metadata", [{ name: "m.pdf", bytes: await makeTextPdf(1) }], { creator: "me" }), "PARAMS_INVALID", /creator/);
  });
});
