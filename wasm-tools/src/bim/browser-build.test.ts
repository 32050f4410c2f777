/**
 * The browser gets web-ifc's ES module build and its own binary (web-ifc.wasm); Bun gets the
 * Node build (web-ifc-node.wasm). Outputs are compared byte for byte: the family is bundled for
 * the browser, then run in a Bun process dressed as a Web Worker (no `process.versions.node`,
 * a WorkerGlobalScope), and must give the same bytes as the server build here.
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeWasmPath } from "../runtime/node-wasm";
import { WEBIFC_WASM } from "./init";
import { BIM_FIXTURES, ifcFixture, runBim } from "./test-support";

const SRC = join(import.meta.dir, "..");
const CASES: [string, string][] = [
  ["bim.ifc-to-glb", "example.ifc"],
  ["bim.ifc-to-glb", "AC20-FZK-Haus.ifc"],
  ["bim.ifc-info", "duplex.ifc"],
  ["bim.ifc-properties", "example.ifc"],
];

describe("bim in a browser build", () => {
  test("gives the same bytes as the server build", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bim-browser-"));
    try {
      const entry = join(dir, "entry.ts");
      writeFileSync(entry, [`export { bimTools } from ${JSON.stringify(join(SRC, "bim/index.ts"))};`, `export { executeEntry } from ${JSON.stringify(join(SRC, "runtime/execute.ts"))};`, `export { setWasmLocator } from ${JSON.stringify(join(SRC, "runtime/wasm-source.ts"))};`].join("\n"));
      const build = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=esm", "--splitting", `--outdir=${join(dir, "out")}`, "--external=module", "--external=node:fs"], { stdout: "pipe", stderr: "pipe" });
      expect(build.exitCode, build.stderr.toString()).toBe(0);
      const bundle = readFileSync(join(dir, "out", "entry.js"), "utf8") + [...new Bun.Glob("*.js").scanSync(join(dir, "out"))].map((f) => readFileSync(join(dir, "out", f), "utf8")).join("");
      expect(bundle.includes('locateFile("web-ifc.wasm")')).toBe(true); // the ES module build, not web-ifc-api-node.js
      expect(bundle.includes('locateFile("web-ifc-node.wasm")')).toBe(false);

      const script = join(dir, "worker.ts");
      writeFileSync(
        script,
        `// dress this process as a Web Worker: web-ifc's browser glue refuses to start under Node
Object.defineProperty(process.versions, "node", { value: undefined, configurable: true });
globalThis.WorkerGlobalScope = class {};
globalThis.self = globalThis;
const { readFileSync } = await import("node:fs");
const lib = await import(${JSON.stringify(join(dir, "out", "entry.js"))});
const asked = [];
lib.setWasmLocator((ref) => { asked.push(ref.file); return { bytes: new Uint8Array(readFileSync(${JSON.stringify(nodeWasmPath(WEBIFC_WASM))})) }; });
const hashes = [];
for (const [slug, file] of ${JSON.stringify(CASES)}) {
  const entry = lib.bimTools.find((t) => t.manifest.slug === slug);
  const [out] = await lib.executeEntry(entry, [{ name: file, bytes: new Uint8Array(readFileSync(${JSON.stringify(BIM_FIXTURES)} + file)) }], {});
  hashes.push(String(Bun.hash(out.bytes)));
}
console.log(JSON.stringify({ asked, hashes }));
`,
      );
      const proc = Bun.spawn([process.execPath, script], { cwd: dir, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(code, err).toBe(0);
      const browser = JSON.parse(out.trim().split("\n").pop() ?? "{}") as { asked: string[]; hashes: string[] };
      expect(browser.asked).toEqual(["web-ifc.wasm"]); // the browser build asks for its own binary
      const server: string[] = [];
      for (const [slug, file] of CASES) {
        const [output] = await runBim(slug, [ifcFixture(file)]);
        server.push(String(Bun.hash(output.bytes)));
      }
      expect(browser.hashes).toEqual(server);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
