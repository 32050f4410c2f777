import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError } from "../../testing/run-tool";
import { boardFiles, findAll, FIXTURES, fixtureInput, lengthMm, parseSvg, runPcb, viewBox } from "../test-support";

const svgOf = (bytes: Uint8Array) => parseSvg(new TextDecoder().decode(bytes));
const SPECS = readdirSync(join(FIXTURES, "gerbers")).flatMap((dir) =>
  readdirSync(join(FIXTURES, "gerbers", dir))
    .filter((f) => !f.endsWith(".svg"))
    .map((f) => `gerbers/${dir}/${f}`),
);

describe("pcb.gerber-to-svg", () => {
  test("renders every tracespace spec fixture at the scale of its reference render and no larger", async () => {
    expect(SPECS.length).toBeGreaterThan(60);
    const problems: string[] = [];
    for (const path of SPECS) {
      const [out] = await runPcb("pcb.gerber-to-svg", [fixtureInput(path)]);
      expect(out.mime).toBe("image/svg+xml");
      const ours = svgOf(out.bytes);
      const drawn = findAll(ours, "use").length + findAll(ours, "path").length;
      if (!drawn) problems.push(`${path}: draws nothing`);
      const reference = parseSvg(readFileSync(join(FIXTURES, path.replace(/\.\w+$/, ".svg")), "utf8"));
      const [, , vw, vh] = viewBox(reference);
      for (const [i, axis] of (["@_width", "@_height"] as const).entries()) {
        const mine = lengthMm(ours[axis]);
        const theirs = String(reference[axis]);
        if (theirs.endsWith("pt")) {
          // gerbv's cairo export, in points, pads the image (by the aperture size around regions)
          const mm = (Number.parseFloat(theirs) * 25.4) / 72;
          if (mm < mine - 0.01 || mm > 2.5 * mine + 5) problems.push(`${path} ${axis}: ${mine.toFixed(2)} mm vs gerbv ${mm.toFixed(2)} mm`);
        } else {
          // hand-made references: thousandths of an inch in the viewBox (some width/height attributes are swapped)
          const referenceMm = ((i === 0 ? vw : vh) * 25.4) / 1000;
          if (mine > referenceMm + 0.001) problems.push(`${path} ${axis}: ${mine} mm is larger than the reference ${referenceMm} mm`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);

  test("drill fixtures match the size of their hand-made reference exactly", async () => {
    for (const name of ["hit", "slot", "linear-route", "arc-route"]) {
      const [out] = await runPcb("pcb.gerber-to-svg", [fixtureInput(`gerbers/drill/${name}.drl`)]);
      const reference = parseSvg(readFileSync(join(FIXTURES, `gerbers/drill/${name}.svg`), "utf8"));
      expect(viewBox(svgOf(out.bytes)).slice(2), name).toEqual(viewBox(reference).slice(2));
    }
  });

  test("a 0.5 in circular pad and a 1 x 0.5 in rectangle come out at their aperture's size", async () => {
    const [circle] = await runPcb("pcb.gerber-to-svg", [fixtureInput("gerbers/pads/circle.gbr")]);
    const svg = svgOf(circle.bytes);
    expect(svg["@_width"]).toBe("0.5in");
    expect(viewBox(svg)).toEqual([-250, -250, 500, 500]);
    const [rect] = await runPcb("pcb.gerber-to-svg", [fixtureInput("gerbers/pads/rectangle.gbr")]);
    expect(viewBox(svgOf(rect.bytes)).slice(2)).toEqual([1000, 500]);
  });

  test("a real drill file: one <use> per hole, as many as the file has coordinates", async () => {
    const { files } = boardFiles("arduino-uno");
    const drill = files.find((f) => f.name.endsWith(".drd"))!;
    // reference: Excellon hit lines are the ones starting with X or Y after the header
    const hits = new TextDecoder().decode(drill.bytes).split(/\r?\n/).filter((l) => /^[XY][+-]?\d/.test(l)).length;
    expect(hits).toBe(169);
    const [out] = await runPcb("pcb.gerber-to-svg", [drill]);
    expect(out.name).toBe("arduino-uno.svg");
    expect(findAll(svgOf(out.bytes), "use").length).toBe(hits);
  });

  test("plotAsOutline turns the outline's strokes into the board's exact 2.7 x 2.1 in shape", async () => {
    const { files } = boardFiles("arduino-uno");
    const outline = files.find((f) => f.name.endsWith(".gko"))!;
    const [stroked] = await runPcb("pcb.gerber-to-svg", [outline]);
    const [asOutline] = await runPcb("pcb.gerber-to-svg", [outline], { plotAsOutline: true });
    expect(viewBox(svgOf(stroked.bytes)).slice(2)).toEqual([2710, 2110]); // includes the 10 mil stroke
    expect(viewBox(svgOf(asOutline.bytes)).slice(2)).toEqual([2700, 2100]);
    expect(svgOf(asOutline.bytes)["@_width"]).toBe("2.7in");
  });

  test("color sets the root colour; output is byte-identical across runs", async () => {
    const input = fixtureInput("gerbers/macros/clear-with-thermal.gbr");
    const [a] = await runPcb("pcb.gerber-to-svg", [input], { color: "#cc9933" });
    const [b] = await runPcb("pcb.gerber-to-svg", [input], { color: "#cc9933" });
    expect(svgOf(a.bytes)["@_color"]).toBe("#cc9933");
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  test("rejects a PDF, random bytes, plain text, an empty file and bad params", async () => {
    const pdf = await makeTextPdf(1);
    await expectToolError(runPcb("pcb.gerber-to-svg", [{ name: "board.gbr", bytes: pdf }]), "INPUT_INVALID", /not a Gerber .* or Excellon/);
    const random = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
    await expectToolError(runPcb("pcb.gerber-to-svg", [{ name: "noise.gtl", bytes: random }]), "INPUT_INVALID", /binary data/);
    const text = new TextEncoder().encode("Dear fab house,\nplease make this board.\n");
    await expectToolError(runPcb("pcb.gerber-to-svg", [{ name: "readme.gbr", bytes: text }]), "INPUT_INVALID", /no apertures, tools/);
    await expectToolError(runPcb("pcb.gerber-to-svg", [{ name: "empty.gbr", bytes: new Uint8Array() }]), "INPUT_EMPTY");
    const ok = fixtureInput("gerbers/pads/circle.gbr");
    await expectToolError(runPcb("pcb.gerber-to-svg", [ok], { color: "red;}<script>" }), "PARAMS_INVALID", /color/);
    await expectToolError(runPcb("pcb.gerber-to-svg", [ok], { outlineGapFill: 0 }), "PARAMS_INVALID", /outlineGapFill/);
  });
});
