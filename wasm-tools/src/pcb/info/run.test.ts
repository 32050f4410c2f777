import { describe, expect, test } from "bun:test";
import { expectToolError } from "../../testing/run-tool";
import { boardFiles, referenceExtentMm, runPcb, zipInput } from "../test-support";

interface Info {
  layers: { file: string; type: string; side: string; format: string; units: string; widthMm: number; heightMm: number }[];
  skipped: { file: string; reason: string }[];
  board: { widthMm: number; heightMm: number; source: string } | null;
  drill: { holes: number; slots: number; files: { file: string; holes: number }[]; sizes: { diameterMm: number; holes: number; slots: number }[] } | null;
}

async function info(input: { name: string; bytes: Uint8Array }): Promise<Info> {
  const [out] = await runPcb("pcb.info", [input]);
  expect(out.mime).toBe("application/json");
  expect(out.name).toBe(`${input.name.replace(/\.[^.]+$/, "")}-info.json`);
  return JSON.parse(new TextDecoder().decode(out.bytes)) as Info;
}

/** Excellon tool table (`T1C0.024`) and hits per tool, read with regexes: an independent reference. */
function referenceDrill(text: string, mmPerUnit: number): Map<number, number> {
  const diameters = new Map<string, number>();
  const counts = new Map<number, number>();
  let tool = "";
  for (const line of text.split(/\r?\n/)) {
    const def = /^T(\d+)C([\d.]+)/.exec(line);
    if (def) diameters.set(String(Number(def[1])), Math.round(Number(def[2]) * mmPerUnit * 1e4) / 1e4);
    else if (/^T\d+$/.test(line)) tool = String(Number(line.slice(1)));
    else if (/^[XY][+-]?\d/.test(line)) {
      const d = diameters.get(tool)!;
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
  }
  return counts;
}

describe("pcb.info", () => {
  test("Arduino Uno: layers as the fixture's manifest says, 68.58 x 53.34 mm from the outline, 169 holes by size", async () => {
    const { files, manifest } = boardFiles("arduino-uno");
    const report = await info(zipInput("arduino-uno.zip", files));
    expect(report.layers.map((l) => ({ name: l.file, type: l.type, side: l.side, format: l.format }))).toEqual(
      [...manifest].sort((a, b) => (a.name < b.name ? -1 : 1)).map((l) => ({ name: l.name, type: l.type, side: l.side, format: l.format })),
    );
    expect(report.skipped).toEqual([]);
    expect(report.board).toEqual({ widthMm: 68.58, heightMm: 53.34, source: "outline", originMm: expect.any(Array) } as never);
    const drill = files.find((f) => f.name.endsWith(".drd"))!;
    const reference = referenceDrill(new TextDecoder().decode(drill.bytes), 25.4);
    expect(report.drill!.holes).toBe(169);
    expect(report.drill!.slots).toBe(0);
    expect(new Map(report.drill!.sizes.map((s) => [s.diameterMm, s.holes]))).toEqual(reference);
    expect(report.drill!.sizes.map((s) => s.diameterMm)).toEqual([...reference.keys()].sort((a, b) => a - b));
  }, 60_000);

  test("every fixture board: identification matches its manifest, size matches an independent outline reader", async () => {
    for (const board of ["clockblock", "8bit-mixtape", "mchck", "core", "usbvil", "bus-pirate"]) {
      const { files, manifest } = boardFiles(board);
      const report = await info(zipInput(`${board}.zip`, files));
      const byName = new Map(manifest.map((l) => [l.name, `${l.type}/${l.side}`]));
      expect(report.layers.map((l) => `${l.file}: ${l.type}/${l.side}`), board).toEqual(report.layers.map((l) => `${l.file}: ${byName.get(l.file)}`));
      expect(report.layers.length, board).toBe(manifest.length);
      const outline = files.find((f) => f.name === manifest.find((l) => l.type === "outline")!.name)!;
      const reference = referenceExtentMm(new TextDecoder().decode(outline.bytes));
      expect(report.board!.source).toBe("outline");
      expect(report.board!.widthMm, board).toBeCloseTo(reference.widthMm, 2);
      expect(report.board!.heightMm, board).toBeCloseTo(reference.heightMm, 2);
      expect(report.drill!.holes, board).toBeGreaterThan(10);
      expect(report.drill!.holes).toBe(report.drill!.sizes.reduce((n, s) => n + s.holes, 0));
    }
  }, 60_000);

  test("a board without an outline is measured from all its layers; a single drill file works too", async () => {
    const { files } = boardFiles("freeduino");
    const report = await info(zipInput("freeduino.zip", files));
    expect(report.board!.source).toBe("layers");
    const widest = Math.max(...report.layers.map((l) => l.widthMm));
    expect(report.board!.widthMm).toBeGreaterThanOrEqual(widest);
    expect(report.board!.widthMm).toBeLessThan(widest + 5);

    const drill = boardFiles("arduino-uno").files.find((f) => f.name.endsWith(".drd"))!;
    const single = await info(drill);
    expect(single.layers.map((l) => [l.type, l.side, l.format, l.units])).toEqual([["drill", "all", "drill", "in"]]);
    expect(single.drill!.holes).toBe(169);
    expect(single.board!.source).toBe("layers");
  });

  test("files with unknown names are read by content, or listed as skipped; nothing readable is INPUT_INVALID", async () => {
    const { files } = boardFiles("usbvil");
    const notes = { name: "notes.md", bytes: new TextEncoder().encode("# fab notes") };
    const renamed = { name: "mystery.dat", bytes: files.find((f) => f.name.endsWith(".gko"))!.bytes };
    const report = await info(zipInput("usbvil.zip", [...files, notes, renamed]));
    expect(report.skipped.map((s) => s.file)).toEqual(["notes.md"]);
    expect(report.skipped[0].reason).toMatch(/file name not recognised.*not a Gerber/);
    const mystery = report.layers.find((l) => l.file === "mystery.dat")!;
    expect([mystery.type, mystery.format]).toEqual(["unknown", "gerber"]);
    expect(mystery.widthMm).toBeGreaterThan(report.board!.widthMm); // stroked, not plotted as an outline
    const random = new Uint8Array(2048).map((_, i) => (i * 2654435761) >>> 24);
    await expectToolError(runPcb("pcb.info", [{ name: "x.gbr", bytes: random }]), "INPUT_INVALID", /x\.gbr.*binary data/);
  });
});
