/** drawing.to-dxf: LibreDWG's DXF writer on a DWG. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { output, stem } from "../../runtime/context";
import { dwgToDxf } from "../common/dwg";
import { drawingKind } from "../common/read";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], _params, ctx) => {
  const kind = drawingKind(input.bytes);
  if (kind !== "dwg") {
    throw new ToolError("INPUT_INVALID", kind === "dxf" ? `"${input.name}" is a DXF already` : `"${input.name}" is not a DWG (it would start with a version such as AC1032)`);
  }
  ctx.onProgress(0.05, "writing DXF");
  return [output(`${stem(input.name)}.dxf`, "dxf", await dwgToDxf(input.bytes))];
};
