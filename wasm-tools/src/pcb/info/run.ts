/**
 * pcb.info: identification by file name (files with unknown names are still read, as type
 * `unknown`), sizes from the plotted layers, holes from the drill files.
 */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, jsonBytes, output, stem } from "../../runtime/context";
import { isZip, loadBoard, unzipBoard, type BoardFile } from "../common/board";
import { drillStats, layerBoxMm, sizeOf, unionBox } from "../common/measure";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const single = !isZip(input.bytes);
  const files: BoardFile[] = single ? [{ path: input.name, bytes: input.bytes }] : unzipBoard(input);
  const board = loadBoard(input.name, files, { outlineGapFill: 0.00011, backupUnits: params.backupUnits, keepUnrecognised: true }, ctx);
  checkpoint(ctx);

  const outlines = board.layers.filter((l) => l.type === "outline");
  const outlineBox = unionBox(outlines.map((l) => layerBoxMm(l.plot)));
  const box = outlineBox ?? unionBox(board.layers.map((l) => layerBoxMm(l.plot)));

  const drills = board.layers.filter((l) => l.type === "drill").map((l) => ({ path: l.path, stats: drillStats(l.plot) }));
  const sizes = new Map<number, { holes: number; slots: number }>();
  for (const { stats } of drills) {
    for (const [diameter, counts] of stats.byDiameterMm) {
      const total = sizes.get(diameter) ?? { holes: 0, slots: 0 };
      sizes.set(diameter, { holes: total.holes + counts.holes, slots: total.slots + counts.slots });
    }
  }

  const report = {
    file: input.name,
    layers: board.layers.map((l) => {
      const layerBox = layerBoxMm(l.plot);
      return {
        file: l.path,
        type: l.type,
        side: l.side,
        format: l.plot.filetype,
        units: l.plot.converter.units,
        ...(layerBox ? sizeOf(layerBox) : { widthMm: 0, heightMm: 0 }),
        warnings: l.plot.warnings.length,
      };
    }),
    skipped: board.skipped.map((s) => ({ file: s.path, reason: s.reason })),
    board: box
      ? { ...sizeOf(box), source: outlineBox ? "outline" : "layers", originMm: [Math.round(box[0] * 1e4) / 1e4, Math.round(box[1] * 1e4) / 1e4] }
      : null,
    drill: drills.length
      ? {
          files: drills.map((d) => ({ file: d.path, holes: d.stats.holes, slots: d.stats.slots })),
          holes: drills.reduce((n, d) => n + d.stats.holes, 0),
          slots: drills.reduce((n, d) => n + d.stats.slots, 0),
          sizes: [...sizes.entries()].sort((a, b) => a[0] - b[0]).map(([diameterMm, counts]) => ({ diameterMm, ...counts })),
        }
      : null,
  };
  return [output(`${stem(input.name)}-info.json`, "json", jsonBytes(report))];
};
