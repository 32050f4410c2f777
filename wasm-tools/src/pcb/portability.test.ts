/**
 * The PCB run modules, bundled for the browser, must run where neither `process`, `Buffer`,
 * `global` nor `require` exist (a Web Worker). gerber-to-svg's stream plumbing and pcb-stackup's
 * wrapper need those; this family avoids them, and this test keeps it that way.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import vm from "node:vm";
import { boardFiles, zipInput } from "./test-support";

const HERE = resolve(import.meta.dir);

describe("pcb portability", () => {
  test("the browser bundle renders a board in a sandbox with only Web Worker globals", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pcb-bundle-"));
    try {
      const entry = join(dir, "entry.ts");
      writeFileSync(
        entry,
        ["gerber-to-svg", "render-board", "info"].map((op, i) => `import { run as r${i} } from ${JSON.stringify(join(HERE, op, "run.ts"))};`).join("\n") +
          "\n(globalThis as { tools?: unknown }).tools = [r0, r1, r2];\n",
      );
      const build = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=iife", `--outdir=${join(dir, "out")}`], { stdout: "pipe", stderr: "pipe" });
      expect(build.stderr.toString()).toBe("");
      expect(build.exitCode).toBe(0);
      const sandbox: Record<string, unknown> = { TextEncoder, TextDecoder, queueMicrotask, setTimeout, clearTimeout, URL, console };
      sandbox.self = sandbox;
      vm.createContext(sandbox);
      expect(vm.runInContext("[typeof process, typeof Buffer, typeof global, typeof require].join()", sandbox)).toBe("undefined,undefined,undefined,undefined");
      vm.runInContext(readFileSync(join(dir, "out", "entry.js"), "utf8"), sandbox);
      const [gerberToSvg, renderBoard, info] = sandbox.tools as ((...args: unknown[]) => Promise<{ name: string; bytes: Uint8Array }[]>)[];
      const ctx = { signal: new AbortController().signal, onProgress: () => {} };
      const { files } = boardFiles("usbvil");
      const board = await renderBoard([zipInput("usbvil.zip", files)], { side: "both", color: {}, useOutline: true, outlineGapFill: 0.00011, backupUnits: "in" }, ctx);
      expect(board.map((o) => o.name)).toEqual(["usbvil-top.svg", "usbvil-bottom.svg"]);
      expect(new TextDecoder().decode(board[0].bytes)).toStartWith("<svg");
      const [layer] = await gerberToSvg([files[0]], { plotAsOutline: false, outlineGapFill: 0.00011, optimizePaths: false, backupUnits: "in" }, ctx);
      expect(new TextDecoder().decode(layer.bytes)).toContain("viewBox");
      const [report] = await info([zipInput("usbvil.zip", files)], { backupUnits: "in" }, ctx);
      expect(JSON.parse(new TextDecoder().decode(report.bytes)).layers.length).toBe(files.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
