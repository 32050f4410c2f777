/**
 * PDF tools on a browser's File (ToolInput.blob, as the tool worker is given the picked file):
 * the tools that read their input only through mupdf's Stream declare io.blobInputs, and mupdf
 * reads the Blob a window at a time; the outputs are the bytes the same run gives from the whole
 * file in memory, a PDF that mupdf cannot shrink comes back whole, and a truncated File is refused
 * from its end. Bun has no FileReaderSync: the test's stands in (testing/file-reader-sync.ts); the
 * real one is exercised in Chromium (e2e/pdf-stream.e2e.ts).
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { blobInput, withFileReaderSync } from "../testing/file-reader-sync";
import { makeBloatedPdf, makeTextPdf } from "../testing/pdf-fixtures";
import { expectToolError } from "../testing/run-tool";
import { pdfTools } from "./index";

function run(slug: string, inputs: ToolInput[], params: Record<string, unknown>): Promise<ToolOutput[]> {
  return executeEntry(pdfTools.find((e) => e.manifest.slug === slug)!, inputs, params, {});
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("PDF tools on a browser's File", () => {
  test("the tools that read through mupdf's Stream take Blobs; metadata (pdf-lib, all the bytes) does not", () => {
    const takesBlobs = pdfTools.filter((e) => e.manifest.io.blobInputs).map((e) => e.manifest.slug);
    expect(takesBlobs.sort()).toEqual(["pdf.compress", "pdf.extract-text", "pdf.merge", "pdf.render-png", "pdf.rotate", "pdf.split"]);
  });

  test("rotate, split, merge, compress, render-png and extract-text: the same outputs as from bytes, the File read a window at a time", async () => {
    const bloated = await makeBloatedPdf(3, 2);
    const other = await makeTextPdf(2, "Other");
    expect(bloated.length).toBeGreaterThan(256 * 1024); // far more than the first bytes given
    const cases: [string, Uint8Array[], Record<string, unknown>][] = [
      ["pdf.rotate", [bloated], { degrees: 90, pages: "2" }],
      ["pdf.split", [bloated], { ranges: "1,2-3" }],
      ["pdf.merge", [bloated, other], {}],
      ["pdf.compress", [bloated], { level: 1 }],
      ["pdf.compress", [bloated], { level: 6 }],
      ["pdf.render-png", [bloated], { dpi: 36 }],
      ["pdf.extract-text", [bloated], { format: "txt" }],
    ];
    for (const [slug, files, params] of cases) {
      const fromBytes = await run(slug, files.map((bytes, i) => ({ name: `in${i}.pdf`, bytes })), params);
      const { result: fromBlob, reads } = await withFileReaderSync(() => run(slug, files.map((bytes, i) => blobInput(`in${i}.pdf`, bytes)), params));
      expect(reads, slug).toBeGreaterThan(0);
      expect(fromBlob.map((o) => [o.name, o.mime, o.bytes.length]), slug).toEqual(fromBytes.map((o) => [o.name, o.mime, o.bytes.length]));
      fromBlob.forEach((o, i) => expect(same(o.bytes, fromBytes[i].bytes), `${slug} ${o.name}`).toBe(true));
    }
    expect(new TextDecoder().decode((await withFileReaderSync(() => run("pdf.extract-text", [blobInput("b.pdf", bloated)], { format: "txt" }))).result[0].bytes)).toContain("Bloated page 3");
  }, 120_000);

  test("compress hands back the whole File when mupdf's copy is not smaller", async () => {
    const [compact] = await run("pdf.compress", [{ name: "t.pdf", bytes: await makeTextPdf(400) }], { level: 9 });
    expect(compact.bytes.length).toBeGreaterThan(64 * 1024);
    const { result } = await withFileReaderSync(() => run("pdf.compress", [blobInput("compact.pdf", compact.bytes)], { level: 1 }));
    expect(same(result[0].bytes, compact.bytes)).toBe(true);
  }, 60_000);

  test("a truncated File is INPUT_INVALID: its end is read from the File, not from the first bytes given", async () => {
    const bloated = await makeBloatedPdf(3, 2);
    const cut = blobInput("cut.pdf", bloated.slice(0, Math.floor(bloated.length * 0.6)));
    await withFileReaderSync(() => expectToolError(run("pdf.rotate", [cut], { degrees: 90 }), "INPUT_INVALID", /truncated/));
  });
});
