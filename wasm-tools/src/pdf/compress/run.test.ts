import "../../testing/node-host";
import { beforeAll, describe, expect, test } from "bun:test";
import { pdfinfo, pdftotext, qpdfCheck, requireBinary } from "../../testing/cli";
import { makeBloatedPdf, makeTextPdf, makeZeroPagePdf } from "../../testing/pdf-fixtures";
import { expectToolError, runTool } from "../../testing/run-tool";
import { saveOptions } from "./run";

let bloated: Uint8Array;
beforeAll(async () => {
  bloated = await makeBloatedPdf();
});
const input = (bytes: Uint8Array, name = "bloated.pdf") => [{ name, bytes }];

describe("pdf.compress", () => {
  test("makes a bloated PDF much smaller and still valid", async () => {
    expect(bloated.length).toBeGreaterThan(3_000_000);
    const [out] = await runTool("pdf.compress", input(bloated));
    expect(out.name).toBe("bloated-compressed.pdf");
    expect(out.mime).toBe("application/pdf");
    expect(out.bytes.length).toBeLessThan(bloated.length / 50);
    if (requireBinary("qpdf", "qpdf")) expect(qpdfCheck(out.bytes).code).toBe(0);
    if (requireBinary("pdfinfo", "poppler-utils")) {
      expect(pdfinfo(out.bytes).fields.Pages).toBe("5");
      expect(pdftotext(out.bytes)).toContain("Bloated page 4");
    }
  });

  test("higher levels deduplicate: level 6 beats level 1, which beats the input", async () => {
    const [one] = await runTool("pdf.compress", input(bloated), { level: 1 });
    const [six] = await runTool("pdf.compress", input(bloated), { level: 6 });
    expect(one.bytes.length).toBeLessThan(bloated.length);
    expect(six.bytes.length).toBeLessThan(one.bytes.length / 3);
    if (requireBinary("qpdf", "qpdf")) expect(qpdfCheck(one.bytes).code).toBe(0);
  });

  test("level 9 (clean, sanitize) still gives a valid PDF with its text", async () => {
    const [nine] = await runTool("pdf.compress", input(bloated), { level: 9 });
    if (requireBinary("qpdf", "qpdf")) expect(qpdfCheck(nine.bytes).code).toBe(0);
    if (requireBinary("pdftotext", "poppler-utils")) expect(pdftotext(nine.bytes)).toContain("Bloated page 1");
  });

  test("is deterministic", async () => {
    const [a] = await runTool("pdf.compress", input(bloated));
    const [b] = await runTool("pdf.compress", input(bloated));
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  test("never returns a bigger file", async () => {
    const [once] = await runTool("pdf.compress", input(bloated), { level: 9 });
    const [twice] = await runTool("pdf.compress", input(once.bytes, "once.pdf"), { level: 1 });
    expect(twice.bytes.length).toBeLessThanOrEqual(once.bytes.length);
  });

  test("maps levels to mupdf options", () => {
    expect(saveOptions(1)).toBe("compress,garbage=1");
    expect(saveOptions(6)).toContain("garbage=4");
    expect(saveOptions(6)).toContain("objstms");
    expect(saveOptions(9)).toContain("sanitize");
  });

  test("rejects non-PDFs, truncated PDFs, PDFs without pages and bad levels", async () => {
    await expectToolError(runTool("pdf.compress", input(new TextEncoder().encode("hello, not a pdf"), "a.pdf")), "INPUT_INVALID", /not a PDF/);
    const text = await makeTextPdf(3);
    await expectToolError(runTool("pdf.compress", input(text.slice(0, Math.floor(text.length * 0.6)))), "INPUT_INVALID", /truncated/);
    await expectToolError(runTool("pdf.compress", input(await makeZeroPagePdf())), "INPUT_EMPTY", /no pages/);
    await expectToolError(runTool("pdf.compress", input(text), { level: 0 }), "PARAMS_INVALID", /level/);
  });
});
