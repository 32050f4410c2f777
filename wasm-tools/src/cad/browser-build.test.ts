/**
 * In a browser, occt-import-js's glue takes its web code paths. Outputs are compared byte for
 * byte: the family is bundled for the browser, then run in a Bun process dressed as a Web Worker
 * (no `process.versions.node`, a WorkerGlobalScope), and must give the same bytes as here.
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeWasmPath } from "../runtime/node-wasm";
import { OCCT_WASM } from "./init";
import { OCCT_TESTFILES, cadFixture, runCad } from "./test-support";

const SRC = join(import.meta.dir, "..");
const CASES: [string, string, Record<string, string>][] = [
  ["cad.convert", "cax-if/dm1-id-214.stp", { format: "glb" }],
  ["cad.convert", "cube-fcstd/cube.step", { format: "glb" }],
  ["cad.convert", "cax-if-brep/as1_pe_203.brep", { format: "stl" }],
  ["cad.convert", "cube-10x10mm/Cube 10x10.igs", { format: "obj" }],
  ["cad.info", "cax-if/io1-cm-214.stp", {}],
];

describe("cad in a browser build", () => {
  test("gives the same bytes as the server build", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cad-browser-"));
    try {
      const entry = join(dir, "entry.ts");
      writeFileSync(entry, [`export { cadTools } from ${JSON.stringify(join(SRC, "cad/index.ts"))};`, `export { executeEntry } from ${JSON.stringify(join(SRC, "runtime/execute.ts"))};`, `export { setWasmLocator } from ${JSON.stringify(join(SRC, "runtime/wasm-source.ts"))};`].join("\n"));
      const build = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=esm", "--splitting", `--outdir=${join(dir, "out")}`, "--external=module", "--external=node:fs"], { stdout: "pipe", stderr: "pipe" });
      expect(build.exitCode, build.stderr.toString()).toBe(0);
      const bundle = readFileSync(join(dir, "out", "entry.js"), "utf8") + [...new Bun.Glob("*.js").scanSync(join(dir, "out"))].map((f) => readFileSync(join(dir, "out", f), "utf8")).join("");
      expect(bundle.includes("occtimportjs")).toBe(true);

      const script = join(dir, "worker.ts");
      writeFileSync(
        script,
        `// dress this process as a Web Worker, so occt-import-js's glue takes its web paths
Object.defineProperty(process.versions, "node", { value: undefined, configurable: true });
globalThis.WorkerGlobalScope = class {};
globalThis.self = globalThis;
const { readFileSync } = await import("node:fs");
const lib = await import(${JSON.stringify(join(dir, "out", "entry.js"))});
const asked = [];
lib.setWasmLocator((ref) => { asked.push(ref.file); return { bytes: new Uint8Array(readFileSync(${JSON.stringify(nodeWasmPath(OCCT_WASM))})) }; });
const hashes = [];
for (const [slug, file, params] of ${JSON.stringify(CASES)}) {
  const entry = lib.cadTools.find((t) => t.manifest.slug === slug);
  const [out] = await lib.executeEntry(entry, [{ name: file.split("/").pop(), bytes: new Uint8Array(readFileSync(${JSON.stringify(OCCT_TESTFILES)} + file)) }], params);
  hashes.push(String(Bun.hash(out.bytes)));
}
console.log(JSON.stringify({ asked, hashes }));
`,
      );
      const proc = Bun.spawn([process.execPath, script], { cwd: dir, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(code, err).toBe(0);
      const browser = JSON.parse(out.trim().split("\n").pop() ?? "{}") as { asked: string[]; hashes: string[] };
      expect(browser.asked).toEqual(["occt-import-js.wasm"]);
      const server: string[] = [];
      for (const [slug, file, params] of CASES) {
        const [output] = await runCad(slug, [cadFixture(file)], params);
        server.push(String(Bun.hash(output.bytes)));
      }
      expect(browser.hashes).toEqual(server);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
