import { describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError } from "../../testing/run-tool";
import { boardFiles, findAll, lengthMm, parseSvg, referenceExtentMm, runPcb, viewBox, zipInput } from "../test-support";

const svgOf = (bytes: Uint8Array) => parseSvg(new TextDecoder().decode(bytes));
const LAYER_TYPES = ["copper", "soldermask", "silkscreen", "solderpaste"];

/** ids of the per-layer groups pcb-stackup-core draws for one side: `board_top_copper`, `board_top_drill1`, ... */
function layerGroups(svg: ReturnType<typeof parseSvg>, side: string): string[] {
  return findAll(svg, "g")
    .map((g) => String(g["@_id"] ?? ""))
    .filter((id) => new RegExp(`^board_${side}_(${LAYER_TYPES.join("|")}|drill\\d+)$`).test(id))
    .sort();
}

describe("pcb.render-board", () => {
  test("Arduino Uno: top and bottom SVGs at the board's 2.7 x 2.1 in (68.58 x 53.34 mm), one group per layer", async () => {
    const { files, manifest } = boardFiles("arduino-uno");
    const outputs = await runPcb("pcb.render-board", [zipInput("arduino-uno.zip", files)]);
    expect(outputs.map((o) => [o.name, o.mime])).toEqual([
      ["arduino-uno-top.svg", "image/svg+xml"],
      ["arduino-uno-bottom.svg", "image/svg+xml"],
    ]);
    for (const [index, side] of ["top", "bottom"].entries()) {
      const svg = svgOf(outputs[index].bytes);
      expect(svg["@_id"]).toBe(`board_${side}`);
      expect(viewBox(svg).slice(2)).toEqual([2700, 2100]);
      expect(lengthMm(svg["@_width"])).toBeCloseTo(68.58, 6);
      expect(lengthMm(svg["@_height"])).toBeCloseTo(53.34, 6);
      const expected = [
        ...manifest.filter((l) => l.side === side && LAYER_TYPES.includes(l.type)).map((l) => `board_${side}_${l.type}`),
        ...manifest.filter((l) => l.type === "drill").map((_, i) => `board_${side}_drill${i + 1}`),
      ].sort();
      expect(layerGroups(svg, side)).toEqual(expected);
      expect(findAll(svg, "clipPath").map((c) => c["@_id"])).toContain(`board_${side}_outline`);
    }
  }, 60_000);

  test("every fixture board, zipped in a folder: the viewBox is the outline's extent from an independent reader", async () => {
    for (const board of ["clockblock", "8bit-mixtape", "mchck", "core", "usbvil", "bus-pirate"]) {
      const { files, manifest } = boardFiles(board);
      const outline = files.find((f) => f.name === manifest.find((l) => l.type === "outline")!.name)!;
      const reference = referenceExtentMm(new TextDecoder().decode(outline.bytes));
      const [top] = await runPcb("pcb.render-board", [zipInput(`${board}.zip`, files, "gerbers/")], { side: "top" });
      const svg = svgOf(top.bytes);
      const units = String(svg["@_width"]).endsWith("in") ? 0.0254 : 0.001;
      const [, , w, h] = viewBox(svg);
      expect(w * units, board).toBeCloseTo(reference.widthMm, 2);
      expect(h * units, board).toBeCloseTo(reference.heightMm, 2);
      expect(layerGroups(svg, "top").length, board).toBe(manifest.filter((l) => l.side === "top" || l.type === "drill").length);
    }
  }, 60_000);

  test("side, colours and useOutline are applied; output is byte-identical across runs", async () => {
    const { files } = boardFiles("usbvil");
    const input = zipInput("usbvil.zip", files);
    const params = { side: "bottom", color: { sm: "#800080", ss: "yellow" } };
    const [a, extra] = await runPcb("pcb.render-board", [input], params);
    expect(extra).toBeUndefined();
    expect(a.name).toBe("usbvil-bottom.svg");
    const [styleNode] = findAll(svgOf(a.bytes), "style") as unknown[];
    const style = typeof styleNode === "string" ? styleNode : String((styleNode as Record<string, unknown>)["#text"]);
    expect(style).toContain("color: #800080");
    expect(style).toContain("color: #ffff00"); // keyword, normalised by pcb-stackup-core
    const [b] = await runPcb("pcb.render-board", [input], params);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const [noOutline] = await runPcb("pcb.render-board", [input], { side: "top", useOutline: false });
    expect(findAll(svgOf(noOutline.bytes), "clipPath").map((c) => c["@_id"])).not.toContain("board_top_outline");
  });

  test("a ZIP without Gerber files, an empty ZIP, a PDF and Gerber names with garbage inside are rejected clearly", async () => {
    const text = (s: string) => new TextEncoder().encode(s);
    const noGerbers = zipInput("docs.zip", [
      { name: "readme.txt", bytes: text("Board v2, 1.6 mm FR4") },
      { name: "photo.jpg", bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) },
    ]);
    await expectToolError(runPcb("pcb.render-board", [noGerbers]), "INPUT_INVALID", /no Gerber or drill files.*photo\.jpg \(file name not recognised.*readme\.txt \(.*no Gerber blocks/);
    await expectToolError(runPcb("pcb.render-board", [{ name: "empty.zip", bytes: zipSync({}) }]), "INPUT_EMPTY", /contains no files/);
    await expectToolError(runPcb("pcb.render-board", [{ name: "board.zip", bytes: await makeTextPdf(1) }]), "INPUT_INVALID", /not a ZIP archive/);
    const garbage = zipInput("bad.zip", [{ name: "board-F_Cu.gbr", bytes: text("this is not a gerber\n") }]);
    await expectToolError(runPcb("pcb.render-board", [garbage]), "INPUT_INVALID", /board-F_Cu\.gbr \(.*not a Gerber/);
    await expectToolError(runPcb("pcb.render-board", [noGerbers], { color: { sm: "url(javascript:x)" } }), "PARAMS_INVALID", /color\/sm/);
  });
});
