/**
 * BIM tools on host files (how the server's workers run them) and on a browser's File (the tool
 * worker's picked file): web-ifc pulls the model a piece at a time through its loader callback,
 * never the whole file in memory. The same bytes as from the in-memory path, no host file left
 * open; a truncated file is refused from its tail. Bun has no FileReaderSync: the test's stands in.
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { blobInput, withFileReaderSync } from "../testing/file-reader-sync";
import { hostInput, inHostFolder, openFilesIn } from "../testing/host-files";
import { expectToolError } from "../testing/run-tool";
import { stepCopies } from "../testing/step-copies";
import { BIM_FIXTURES, runBim } from "./test-support";

/** Generous: the first run loads the WASM engine, and CI machines can be busy. */
const SLOW = 120_000;

describe("BIM tools on host files", () => {
  test("info, properties and GLB from a host file read in several pieces: the same bytes as from memory", async () => {
    // Two copies of FZK-Haus (5 MB): more than one piece of web-ifc's loader reads.
    const bytes = stepCopies(`${BIM_FIXTURES}AC20-FZK-Haus.ifc`, 2);
    expect(bytes.length).toBeGreaterThan(4 * 1024 * 1024);
    await inHostFolder("bim-host-", async (dir) => {
      const input = hostInput(dir, "two houses.ifc", bytes);
      const cases: [string, Record<string, unknown>][] = [
        ["bim.ifc-info", {}],
        ["bim.ifc-properties", { format: "csv" }],
        ["bim.ifc-to-glb", {}],
      ];
      for (const [slug, params] of cases) {
        const [onHost] = await runBim(slug, [input], params);
        const [inMemory] = await runBim(slug, [{ name: input.name, bytes }], params);
        expect(onHost.name, slug).toBe(inMemory.name);
        expect(Buffer.from(onHost.bytes).equals(Buffer.from(inMemory.bytes)), slug).toBe(true);
      }
      expect(openFilesIn(dir)).toEqual([]);
    });
  }, SLOW);

  test("info from a browser's File read in windows: the same bytes as from memory", async () => {
    const bytes = stepCopies(`${BIM_FIXTURES}AC20-FZK-Haus.ifc`, 2);
    const [inMemory] = await runBim("bim.ifc-info", [{ name: "two.ifc", bytes }]);
    const { result, reads } = await withFileReaderSync(() => runBim("bim.ifc-info", [blobInput("two.ifc", bytes)]));
    expect(reads).toBeGreaterThan(1);
    expect(Buffer.from(result[0].bytes).equals(Buffer.from(inMemory.bytes))).toBe(true);
    const cut = blobInput("cut.ifc", bytes.slice(0, Math.floor(bytes.length * 0.6)));
    await withFileReaderSync(() => expectToolError(runBim("bim.ifc-info", [cut]), "INPUT_INVALID", /truncated/));
  }, SLOW);

  test("a truncated host file is INPUT_INVALID: its end is read from the file, not from the first bytes given", async () => {
    const bytes = stepCopies(`${BIM_FIXTURES}AC20-FZK-Haus.ifc`, 1);
    await inHostFolder("bim-host-", async (dir) => {
      const cut = hostInput(dir, "cut.ifc", bytes.slice(0, Math.floor(bytes.length * 0.6)));
      await expectToolError(runBim("bim.ifc-info", [cut]), "INPUT_INVALID", /truncated/);
    });
  }, SLOW);
});
