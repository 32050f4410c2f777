/**
 * pcb.render-board: layers plotted by common/board, stacked by pcb-stackup-core. pcb-stackup's
 * own wrapper is not used: it adds only identification and plotting (done in common/board, the
 * same way) and depends on `queue-microtask`, which reads the Node global `global` and fails in
 * a browser worker.
 */
import createStackup from "pcb-stackup-core";
import type { ToolOutput, ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, output, stem } from "../../runtime/context";
import { loadBoard, unzipBoard } from "../common/board";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const files = unzipBoard(input);
  const board = loadBoard(input.name, files, { outlineGapFill: params.outlineGapFill, backupUnits: params.backupUnits }, ctx);
  checkpoint(ctx);
  ctx.onProgress(0.85, "stacking layers");
  // pcb-stackup-core reads only a finished converter's fields (a clone), though its typing names the stream.
  const layers = board.layers.map((l) => ({ type: l.type, side: l.side, filename: l.path, converter: l.plot.converter }));
  const stackup = createStackup(layers as unknown as Parameters<typeof createStackup>[0], { id: "board", color: params.color, useOutline: params.useOutline });
  const base = stem(input.name);
  const sides = params.side === "both" ? (["top", "bottom"] as const) : [params.side];
  return sides.map((side): ToolOutput => output(`${base}-${side}.svg`, "svg", new TextEncoder().encode(stackup[side].svg)));
};
