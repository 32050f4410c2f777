/** sink.download: marks its inputs as outputs of the run, to download as they are. */
import { Type } from "@sinclair/typebox";
import type { NodeKind } from "./types";

/** The node kind `sink.download`. */
export const sinkDownload: NodeKind = {
  description: {
    type: "sink.download",
    category: "sink",
    title: "Download",
    description: "The files it receives are outputs of the run, downloadable one by one.",
    params: Type.Object({}, { additionalProperties: false }),
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
    inline: true,
  },
  execute: async (ctx) => ({ kind: "done", outputs: ctx.inputs }),
};
