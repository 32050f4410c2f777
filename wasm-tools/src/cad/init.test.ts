import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { inFreshProcess, SRC } from "../testing/fresh-process";
import { pathToFileURL } from "node:url";
import { nodeWasmPath } from "../runtime/node-wasm";
import { OCCT_WASM } from "./init";
import { cadFixture, runCad } from "./test-support";


/** Converts the 10 mm cube (STEP to GLB, IGES info) with the locator `SOURCE` (or none) and prints what happened. */
const script = (source: string) => `
const { setWasmLocator } = await import(SRC + "/runtime/wasm-source.ts");
const { executeEntry } = await import(SRC + "/runtime/execute.ts");
const { cadTools } = await import(SRC + "/cad/index.ts");
const { cadFixture } = await import(SRC + "/cad/test-support.ts");
const { compileWasm } = await import(SRC + "/runtime/wasm-source.ts");
const { readFileSync } = await import("node:fs");
const { nodeWasmPath } = await import(SRC + "/runtime/node-wasm.ts");
${source}
const asked = [];
if (typeof SOURCE === "function") setWasmLocator(async (ref) => { asked.push(ref.name + ":" + ref.pkg + "/" + ref.file); return SOURCE(ref); });
const run = (slug, file) => executeEntry(cadTools.find((t) => t.manifest.slug === slug), [cadFixture(file)], {}).then((o) => String(Bun.hash(o[0].bytes)), (e) => e.code + " " + e.message);
// (reading IGES makes OpenCascade print "Total number of loaded entities"; none of it may reach stdout)
console.log(JSON.stringify({ glb: await run("cad.convert", "cube-10x10mm/Cube 10x10.stp"), info: await run("cad.info", "cube-10x10mm/Cube 10x10.igs"), asked }));
`;

describe("CAD WASM loading", () => {
  test("the node_modules locator points at occt-import-js's WASM file", async () => {
    const bytes = new Uint8Array(await Bun.file(nodeWasmPath(OCCT_WASM)).arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d]);
    expect(bytes.byteLength).toBeGreaterThan(5_000_000);
  });

  test("asks the host once; runs on injected bytes, a URL, a compiled module or the default; the same bytes each way; garbage fails clearly", async () => {
    const [here] = await runCad("cad.convert", [cadFixture("cube-10x10mm/Cube 10x10.stp")]);
    const url = pathToFileURL(nodeWasmPath(OCCT_WASM)).href;
    const [bytes, viaUrl, module, none, garbage] = await Promise.all([
      inFreshProcess(script(`const SOURCE = (ref) => ({ bytes: new Uint8Array(readFileSync(nodeWasmPath(ref))) });`)),
      inFreshProcess(script(`const SOURCE = () => ({ url: ${JSON.stringify(url)} });`)),
      inFreshProcess(script(`const compiled = await compileWasm({ bytes: new Uint8Array(readFileSync(nodeWasmPath({ pkg: "occt-import-js", file: "occt-import-js.wasm" }))) });\nconst SOURCE = () => ({ module: compiled });`)),
      inFreshProcess(script("")),
      inFreshProcess(script(`const SOURCE = () => ({ bytes: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) });`)),
    ]);
    for (const r of [bytes, viaUrl, module, none, garbage]) expect(r.code, r.err).toBe(0);
    const results = [bytes, viaUrl, module, none].map((r) => JSON.parse(r.out));
    expect(results[0].asked).toEqual(["occt-import-js:occt-import-js/occt-import-js.wasm"]); // once, though two tools ran
    for (const r of results) expect(r.glb).toBe(String(Bun.hash(here.bytes))); // byte-identical across processes and sources
    expect(new Set(results.map((r) => r.info)).size).toBe(1);
    expect(results[3].asked).toEqual([]);
    const bad = JSON.parse(garbage.out);
    expect(bad.glb).toMatch(/^TOOL_FAILED Could not load the CAD engine \(occt-import-js WASM\)/);
    expect(bad.info).toMatch(/^TOOL_FAILED Could not load the CAD engine/);
    // occt-import-js prints while reading IGES; none of it reaches stdout or stderr
    for (const r of [bytes, viaUrl, module, none]) {
      expect(r.out.trim().split("\n").length).toBe(1);
      expect(r.err).toBe("");
    }
  }, 120_000);
});
