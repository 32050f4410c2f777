/**
 * The browser gets web-ifc's ES module build and its own binary (web-ifc.wasm); Bun gets the
 * Node build (web-ifc-node.wasm). Outputs are compared byte for byte: the family's browser
 * bundle, run as a Web Worker would run it, must give the same bytes as the server build here.
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { nodeWasmPath } from "../runtime/node-wasm";
import { runBrowserBuild } from "../testing/browser-build";
import { WEBIFC_WASM } from "./init";
import { BIM_FIXTURES, ifcFixture, runBim } from "./test-support";

const CASES: [string, string][] = [
  ["bim.ifc-to-glb", "example.ifc"],
  ["bim.ifc-to-glb", "AC20-FZK-Haus.ifc"],
  ["bim.ifc-info", "duplex.ifc"],
  ["bim.ifc-properties", "example.ifc"],
];

describe("bim in a browser build", () => {
  test("gives the same bytes as the server build", async () => {
    const browser = await runBrowserBuild("bim", nodeWasmPath(WEBIFC_WASM), CASES.map(([slug, file]) => ({ slug, name: file, path: BIM_FIXTURES + file })));
    expect(browser.buildError).toBe("");
    expect(browser.bundle.includes('locateFile("web-ifc.wasm")')).toBe(true); // the ES module build, not web-ifc-api-node.js
    expect(browser.bundle.includes('locateFile("web-ifc-node.wasm")')).toBe(false);
    expect(browser.code, browser.err).toBe(0);
    expect(browser.asked).toEqual(["web-ifc.wasm"]); // the browser build asks for its own binary
    const server: string[] = [];
    for (const [slug, file] of CASES) {
      const [output] = await runBim(slug, [ifcFixture(file)]);
      server.push(String(Bun.hash(output.bytes)));
    }
    expect(browser.hashes).toEqual(server);
  }, 120_000);
});
