import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { inFreshProcess, SRC } from "../testing/fresh-process";
import { pathToFileURL } from "node:url";
import { nodeWasmPath } from "../runtime/node-wasm";
import { WEBIFC_NODE_WASM, WEBIFC_WASM, webIfcWasmRef } from "./init";
import { ifcFixture, runBim } from "./test-support";


/** Runs ifc-to-glb and ifc-info on example.ifc with the locator `SOURCE` (or none) and prints what happened. */
const script = (source: string) => `
const { setWasmLocator, compileWasm } = await import(SRC + "/runtime/wasm-source.ts");
const { executeEntry } = await import(SRC + "/runtime/execute.ts");
const { bimTools } = await import(SRC + "/bim/index.ts");
const { ifcFixture } = await import(SRC + "/bim/test-support.ts");
const { readFileSync } = await import("node:fs");
const { nodeWasmPath } = await import(SRC + "/runtime/node-wasm.ts");
${source}
const asked = [];
if (typeof SOURCE === "function") setWasmLocator(async (ref) => { asked.push(ref.name + ":" + ref.pkg + "/" + ref.file); return SOURCE(ref); });
const input = ifcFixture("example.ifc");
const run = (slug) => executeEntry(bimTools.find((t) => t.manifest.slug === slug), [input], {}).then((o) => String(Bun.hash(o[0].bytes)), (e) => e.code + " " + e.message);
const glb = await run("bim.ifc-to-glb");
const info = await run("bim.ifc-info");
const leaked = ["instantiateWasm", "print", "printErr"].filter((key) => key in {});
console.log(JSON.stringify({ glb, info, asked, leaked }));
`;

describe("BIM WASM loading", () => {
  test("Bun loads web-ifc's Node build, so it asks for web-ifc-node.wasm; both binaries are where the refs say", async () => {
    expect(webIfcWasmRef()).toBe(WEBIFC_NODE_WASM);
    for (const ref of [WEBIFC_WASM, WEBIFC_NODE_WASM]) {
      const bytes = new Uint8Array(await Bun.file(nodeWasmPath(ref)).arrayBuffer());
      expect([...bytes.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d]);
    }
  });

  test("asks the host once; runs on injected bytes, a URL, a compiled module or the default; the same bytes each way; bad modules fail clearly", async () => {
    const [here] = await runBim("bim.ifc-to-glb", [ifcFixture("example.ifc")]);
    const url = pathToFileURL(nodeWasmPath(WEBIFC_NODE_WASM)).href;
    const browserBuild = nodeWasmPath(WEBIFC_WASM);
    const [bytes, viaUrl, module, none, garbage, wrongBuild] = await Promise.all([
      inFreshProcess(script(`const SOURCE = (ref) => ({ bytes: new Uint8Array(readFileSync(nodeWasmPath(ref))) });`)),
      inFreshProcess(script(`const SOURCE = () => ({ url: ${JSON.stringify(url)} });`)),
      inFreshProcess(script(`const compiled = await compileWasm({ url: ${JSON.stringify(url)} });\nconst SOURCE = () => ({ module: compiled });`)),
      inFreshProcess(script("")),
      inFreshProcess(script(`const SOURCE = () => ({ bytes: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) });`)),
      inFreshProcess(script(`const SOURCE = () => ({ bytes: new Uint8Array(readFileSync(${JSON.stringify(browserBuild)})) });`)),
    ]);
    for (const r of [bytes, viaUrl, module, none, garbage, wrongBuild]) expect(r.code, r.err).toBe(0);
    const results = [bytes, viaUrl, module, none].map((r) => JSON.parse(r.out));
    expect(results[0].asked).toEqual(["web-ifc-node:web-ifc/web-ifc-node.wasm"]); // once, though two tools ran
    for (const r of results) expect(r.glb).toBe(String(Bun.hash(here.bytes))); // byte-identical across processes and sources
    expect(new Set(results.map((r) => r.info)).size).toBe(1);
    expect(results[3].asked).toEqual([]);
    for (const r of [...results, JSON.parse(garbage.out), JSON.parse(wrongBuild.out)]) expect(r.leaked).toEqual([]);
    const bad = JSON.parse(garbage.out);
    expect(bad.glb).toMatch(/^TOOL_FAILED Could not load the IFC engine \(web-ifc WASM\)/);
    expect(JSON.parse(wrongBuild.out).glb).toMatch(/^TOOL_FAILED Could not load the IFC engine .*(LinkError|import)/i);
    for (const r of [bytes, viaUrl, module, none]) {
      expect(r.out.trim().split("\n").length).toBe(1); // web-ifc logs nothing
      expect(r.err).toBe("");
    }
  }, 120_000);
});
