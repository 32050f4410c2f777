/** pcb.gerber-to-svg with gerber-parser/gerber-plotter/gerber-to-svg, driven without Node streams. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, output, stem } from "../../runtime/context";
import { decodeGerberText, plotLayer, svgId } from "../common/plot";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const text = decodeGerberText(input.name, input.bytes);
  checkpoint(ctx);
  ctx.onProgress(0.1, "plotting");
  const { svg } = plotLayer(input.name, text, {
    id: svgId(input.name),
    backupUnits: params.backupUnits,
    optimizePaths: params.optimizePaths,
    plotAsOutline: params.plotAsOutline ? params.outlineGapFill : false,
    attributes: params.color ? { color: params.color } : {},
  });
  return [output(`${stem(input.name)}.svg`, "svg", new TextEncoder().encode(svg))];
};
