/**
 * PDF tools on host files (how the server's workers run them): mupdf reads the input from its
 * host file through a stream, a piece at a time, and outputs are written into the host's output
 * folder, handed back by path. The same bytes as from the in-memory path, the input left as it
 * was, no host file left open; a truncated host file is refused from its tail.
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { hostInput, inHostFolder, openFilesIn } from "../testing/host-files";
import { makeBloatedPdf, makeTextPdf } from "../testing/pdf-fixtures";
import { expectToolError } from "../testing/run-tool";
import { pdfTools } from "./index";

function run(slug: string, inputs: ToolInput[], params: Record<string, unknown>, outputDir?: string): Promise<ToolOutput[]> {
  return executeEntry(pdfTools.find((e) => e.manifest.slug === slug)!, inputs, params, outputDir ? { outputDir } : {});
}

/** An output's bytes, from its host file when it is one. */
const bytesOf = (out: ToolOutput) => (out.path ? new Uint8Array(readFileSync(out.path)) : out.bytes);

const inFolder = (use: (dir: string, outputDir: string) => Promise<void>) => inHostFolder("pdf-host-", use);

describe("PDF tools on host files", () => {
  test("rotate, split, merge and compress: outputs in the output folder, the same bytes as in memory", async () => {
    const text = await makeTextPdf(3);
    await inFolder(async (dir, outputDir) => {
      const input = hostInput(dir, "plan set.pdf", text);
      const other = hostInput(dir, "other.pdf", await makeTextPdf(2, "Other"));
      const cases: [string, ToolInput[], Record<string, unknown>][] = [
        ["pdf.rotate", [input], { degrees: 90, pages: "2" }],
        ["pdf.split", [input], { ranges: "1,2-3" }],
        ["pdf.merge", [input, other], {}],
        ["pdf.compress", [input], { level: 6 }],
      ];
      for (const [slug, inputs, params] of cases) {
        const onHost = await run(slug, inputs, params, outputDir);
        const inMemory = await run(slug, inputs.map((i) => ({ name: i.name, bytes: new Uint8Array(readFileSync(i.path!)) })), params);
        expect(onHost.map((o) => [o.name, o.bytes.length, o.path?.startsWith(`${outputDir}/`)]), slug).toEqual(inMemory.map((o) => [o.name, 0, true]));
        onHost.forEach((o, i) => expect(Buffer.from(bytesOf(o)).equals(Buffer.from(inMemory[i].bytes)), `${slug} ${o.name}`).toBe(true));
      }
      expect(Buffer.from(readFileSync(input.path!)).equals(Buffer.from(text))).toBe(true);
      expect(openFilesIn(dir)).toEqual([]);
    });
  }, 60_000);

  test("compress hands back a copy of the host file when mupdf's is not smaller; render-png and extract-text read the host file", async () => {
    await inFolder(async (dir, outputDir) => {
      // Already compact: level 1 cannot shrink it.
      const [compact] = await run("pdf.compress", [{ name: "b.pdf", bytes: await makeBloatedPdf(2, 2, 64) }], { level: 9 });
      const input = hostInput(dir, "compact.pdf", compact.bytes);
      const [same] = await run("pdf.compress", [input], { level: 1 }, outputDir);
      expect(Buffer.from(bytesOf(same)).equals(Buffer.from(compact.bytes))).toBe(true);
      const pages = hostInput(dir, "pages.pdf", await makeTextPdf(2));
      const pngs = await run("pdf.render-png", [pages], { dpi: 36 }, outputDir);
      expect(pngs.map((p) => [p.name, [...bytesOf(p).subarray(1, 4)]])).toEqual([1, 2].map((n) => [`pages-p${n}.png`, [0x50, 0x4e, 0x47]]));
      const [txt] = await run("pdf.extract-text", [pages], { format: "txt" }, outputDir);
      expect(new TextDecoder().decode(bytesOf(txt))).toContain("Doc page 2");
      expect(openFilesIn(dir)).toEqual([]);
    });
  }, 60_000);

  test("a truncated host file is INPUT_INVALID: its end is read from the file, not from the first bytes given", async () => {
    const text = await makeTextPdf(3);
    await inFolder(async (dir, outputDir) => {
      const cut = hostInput(dir, "cut.pdf", text.slice(0, Math.floor(text.length * 0.6)));
      await expectToolError(run("pdf.rotate", [cut], { degrees: 90 }, outputDir), "INPUT_INVALID", /truncated/);
    });
  });
});
