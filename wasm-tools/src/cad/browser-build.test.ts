/**
 * In a browser, occt-import-js's glue takes its web code paths. Outputs are compared byte for
 * byte: the family's browser bundle, run as a Web Worker would run it, must give the same bytes
 * as here.
 */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { nodeWasmPath } from "../runtime/node-wasm";
import { runBrowserBuild } from "../testing/browser-build";
import { OCCT_WASM } from "./init";
import { OCCT_TESTFILES, cadFixture, runCad } from "./test-support";

const CASES: [string, string, Record<string, string>][] = [
  ["cad.convert", "cax-if/dm1-id-214.stp", { format: "glb" }],
  ["cad.convert", "cube-fcstd/cube.step", { format: "glb" }],
  ["cad.convert", "cax-if-brep/as1_pe_203.brep", { format: "stl" }],
  ["cad.convert", "cube-10x10mm/Cube 10x10.igs", { format: "obj" }],
  ["cad.info", "cax-if/io1-cm-214.stp", {}],
];

describe("cad in a browser build", () => {
  test("gives the same bytes as the server build", async () => {
    const cases = CASES.map(([slug, file, params]) => ({ slug, name: file.split("/").pop()!, path: OCCT_TESTFILES + file, params }));
    const browser = await runBrowserBuild("cad", nodeWasmPath(OCCT_WASM), cases);
    expect(browser.buildError).toBe("");
    expect(browser.bundle.includes("occtimportjs")).toBe(true);
    expect(browser.code, browser.err).toBe(0);
    expect(browser.asked).toEqual(["occt-import-js.wasm"]);
    const server: string[] = [];
    for (const [slug, file, params] of CASES) {
      const [output] = await runCad(slug, [cadFixture(file)], params);
      server.push(String(Bun.hash(output.bytes)));
    }
    expect(browser.hashes).toEqual(server);
  }, 120_000);
});
