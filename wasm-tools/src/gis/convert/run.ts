/** gis.convert with ogr2ogr: open with the driver the bytes call for, write with the target's. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { VECTOR_FORMATS } from "../formats";
import { withGdal } from "../init";
import { openVector, selectLayers, writeVector } from "../vector";
import type { Params } from "./manifest";

export const run: ToolRun<Params> = async ([input], params, ctx) =>
  withGdal(ctx, (op) => {
    const opened = openVector(op, input, VECTOR_FORMATS, "gis.convert");
    const layers = selectLayers(opened, params.layer);
    ctx.onProgress(0.2, `writing ${layers.length} layer${layers.length === 1 ? "" : "s"}`);
    return writeVector(op, opened, { target: params.to, layers, args: [], outputStem: stem(input.name), csvGeometry: params.csvGeometry, place: ctx });
  });
