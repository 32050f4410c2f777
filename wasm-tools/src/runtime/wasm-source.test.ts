import { describe, expect, test } from "bun:test";
import { inFreshProcess, SRC } from "../testing/fresh-process";
import { pathToFileURL } from "node:url";
import { LAZPERF_WASM } from "../pointcloud/init";
import { MUPDF_WASM } from "../pdf/init";
import { nodeWasmPath } from "./node-wasm";
import { compileWasm, lazyOnce } from "./wasm-source";


const runBoth = `
const { setWasmLocator } = await import(SRC + "/runtime/wasm-source.ts");
const { execute } = await import(SRC + "/runtime/execute.ts");
const { PDFDocument } = await import("pdf-lib");
const { readFileSync } = await import("node:fs");
const doc = await PDFDocument.create(); doc.addPage();
const pdf = await doc.save();
const laz = new Uint8Array(readFileSync(SRC + "/../../fixtures/pointcloud/point-color-time.las.laz"));
const asked = [];
setWasmLocator(async (ref) => { asked.push(ref.name + ":" + ref.pkg + "/" + ref.file); return SOURCE(ref); });
const run = (slug, input) => execute(slug, [input], {}).then((o) => o[0].bytes.length, (e) => e.code + " " + e.message);
console.log(JSON.stringify({
  pdf: await run("pdf.compress", { name: "a.pdf", bytes: pdf }),
  pdfAgain: await run("pdf.extract-text", { name: "a.pdf", bytes: pdf }),
  laz: await run("pointcloud.laz-to-las", { name: "a.laz", bytes: laz }),
  lazAgain: await run("pointcloud.info", { name: "a.laz", bytes: laz }),
  asked,
}));
`;

describe("WASM sources", () => {
  test("compileWasm takes bytes, URLs and compiled modules, and rejects garbage as a plain error", async () => {
    const path = nodeWasmPath(LAZPERF_WASM);
    const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
    const fromBytes = await compileWasm({ bytes });
    expect(fromBytes).toBeInstanceOf(WebAssembly.Module);
    expect(await compileWasm({ module: fromBytes })).toBe(fromBytes);
    expect(await compileWasm({ url: pathToFileURL(path).href })).toBeInstanceOf(WebAssembly.Module);
    await expect(compileWasm({ bytes: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) })).rejects.toThrow();
    await expect(compileWasm({ url: pathToFileURL(`${path}.missing`).href })).rejects.toThrow();
  });

  test("lazyOnce loads once, retries after a failure, reloads after discard", async () => {
    let loads = 0;
    const failFirst = lazyOnce(async () => {
      loads++;
      if (loads === 1) throw new Error("flaky");
      return loads;
    });
    await expect(failFirst.get()).rejects.toThrow("flaky");
    expect(await failFirst.get()).toBe(2);
    expect(await failFirst.get()).toBe(2);
    failFirst.discard();
    expect(await failFirst.get()).toBe(3);
  });

  test("the node_modules locator points at real WASM files", async () => {
    for (const ref of [MUPDF_WASM, LAZPERF_WASM]) {
      const bytes = new Uint8Array(await Bun.file(nodeWasmPath(ref)).arrayBuffer());
      expect([...bytes.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d]); // "\0asm"
    }
  });

  test("each family asks the host once and runs on injected bytes or URLs; a bad module fails clearly", async () => {
    const mupdfUrl = pathToFileURL(nodeWasmPath(MUPDF_WASM)).href;
    const [bytes, urls, broken] = await Promise.all([
      inFreshProcess(`const { readFileSync: r } = await import("node:fs");
const { nodeWasmPath } = await import(SRC + "/runtime/node-wasm.ts");
const SOURCE = (ref) => ({ bytes: new Uint8Array(r(nodeWasmPath(ref))) });${runBoth}`),
      inFreshProcess(`const SOURCE = (ref) => ref.name === "mupdf" ? { url: ${JSON.stringify(mupdfUrl)} } : undefined;${runBoth}`),
      inFreshProcess(`const SOURCE = () => ({ bytes: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) });${runBoth}`),
    ]);
    for (const r of [bytes, urls, broken]) expect(r.code, r.err).toBe(0);
    const ok = JSON.parse(bytes.out);
    expect(ok.asked).toEqual(["mupdf:mupdf/mupdf-wasm.wasm", "laz-perf:laz-perf/laz-perf.wasm"]);
    expect(ok.pdf).toBeGreaterThan(100);
    expect(ok.laz).toBe(1207 + 1065 * 34);
    const viaUrl = JSON.parse(urls.out);
    expect(viaUrl.pdf).toBeGreaterThan(100);
    expect(viaUrl.laz).toBe(1207 + 1065 * 34);
    const bad = JSON.parse(broken.out);
    expect(bad.pdf).toMatch(/^TOOL_FAILED Could not load the PDF engine/);
    expect(bad.laz).toMatch(/^TOOL_FAILED Could not load the LAZ decoder/);
    expect(bad.lazAgain).toBe(ok.lazAgain); // pointcloud.info reads headers only: no WASM needed
  }, 60_000);
});
