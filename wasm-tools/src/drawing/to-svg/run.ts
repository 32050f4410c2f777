/** drawing.to-svg: model space as SVG. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem } from "../../runtime/context";
import { readDrawn } from "../common/drawn";
import { toSvg } from "../common/svg";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const { items, bounds } = await readDrawn(input, params, ctx);
  ctx.onProgress(0.8, "writing SVG");
  const svg = toSvg(items, bounds, params.background, input.name);
  return [output(`${stem(input.name)}.svg`, "svg", new TextEncoder().encode(svg))];
};
