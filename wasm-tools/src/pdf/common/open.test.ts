import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { requireBinary, runCli } from "../../testing/cli";
import { withTempFile } from "../../testing/fixtures";
import { makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError, runTool } from "../../testing/run-tool";
import { parsePageRanges, selectPages } from "./pages";

describe("page ranges", () => {
  test("parses singles, ranges and open ends, 1-based", () => {
    expect(parsePageRanges(" 1-3, 5 ,8-", 10)).toEqual([
      { from: 1, to: 3 },
      { from: 5, to: 5 },
      { from: 8, to: 10 },
    ]);
    expect(selectPages("4,2-3,3", 5)).toEqual([1, 2, 3]);
    expect(selectPages(undefined, 3)).toEqual([0, 1, 2]);
  });

  test("rejects page 0, reversed ranges, pages past the end and junk", async () => {
    for (const [spec, message] of [
      ["0-2", /numbered from 1/],
      ["3-2", /before the start/],
      ["4", /last page \(3\)/],
      ["1;2", /Invalid page ranges/],
    ] as const) {
      await expectToolError(Promise.resolve().then(() => parsePageRanges(spec, 3)), "PARAMS_INVALID", message);
    }
  });
});

describe("opening PDFs", () => {
  test("password-protected PDFs are INPUT_UNSUPPORTED for pdf-lib and mupdf tools", async () => {
    if (!requireBinary("qpdf", "qpdf")) return;
    const plain = await makeTextPdf(1);
    const locked = withTempFile("in.pdf", plain, (path) => {
      const out = `${path}.locked.pdf`;
      const r = runCli(["qpdf", "--encrypt", "user-secret", "owner-secret", "256", "--", path, out]);
      expect(r.code).toBe(0);
      return new Uint8Array(readFileSync(out));
    });
    const input = [{ name: "locked.pdf", bytes: locked }];
    await expectToolError(runTool("pdf.metadata", input), "INPUT_UNSUPPORTED", /locked\.pdf.*protect/);
    await expectToolError(runTool("pdf.render-png", input), "INPUT_UNSUPPORTED", /password/);
  });

  test("bytes after %%EOF are fine; a missing header is not", async () => {
    const pdf = await makeTextPdf(1, "Tail");
    const padded = new Uint8Array([...pdf, ...new TextEncoder().encode("\n% trailing junk\n")]);
    const [out] = await runTool("pdf.extract-text", [{ name: "p.pdf", bytes: padded }]);
    expect(new TextDecoder().decode(out.bytes)).toContain("Tail page 1");
    await expectToolError(runTool("pdf.rotate", [{ name: "p.pdf", bytes: pdf.slice(20) }]), "INPUT_INVALID", /no %PDF- header/);
  });
});
