import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pdftotext, requireBinary } from "../../testing/cli";
import { makeTextPdf, pageWords } from "../../testing/pdf-fixtures";
import { expectToolError, runTool, text } from "../../testing/run-tool";
import type { PageText } from "./run";

const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe("pdf.extract-text", () => {
  test("plain text, pages separated by form feeds, same words as poppler", async () => {
    const pdf = await makeTextPdf(3, "Txt");
    const [out] = await runTool("pdf.extract-text", [{ name: "doc.pdf", bytes: pdf }]);
    expect(out.name).toBe("doc.txt");
    expect(out.mime).toBe("text/plain");
    const pages = text(out).split("\f");
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) => {
      expect(page).toContain(pageWords("Txt", i + 1));
      expect(page).toContain("quick brown fox");
    });
    if (requireBinary("pdftotext", "poppler-utils")) expect(words(text(out))).toEqual(words(pdftotext(pdf)));
  });

  test("JSON per page, for selected pages; both formats at once", async () => {
    const pdf = await makeTextPdf(4, "Js");
    const [json] = await runTool("pdf.extract-text", [{ name: "doc.pdf", bytes: pdf }], { format: "json", pages: "2,4" });
    expect(json.name).toBe("doc.json");
    const { pages } = JSON.parse(text(json)) as { pages: PageText[] };
    expect(pages.map((p) => p.number)).toEqual([2, 4]);
    expect(pages[1].text).toContain(pageWords("Js", 4));
    const both = await runTool("pdf.extract-text", [{ name: "doc.pdf", bytes: pdf }], { format: "both" });
    expect(both.map((o) => o.name)).toEqual(["doc.txt", "doc.json"]);
  });

  test("rejects a truncated file", async () => {
    const pdf = await makeTextPdf(2);
    await expectToolError(runTool("pdf.extract-text", [{ name: "cut.pdf", bytes: pdf.slice(0, 900) }]), "INPUT_INVALID", /cut\.pdf.*truncated/);
  });
});
