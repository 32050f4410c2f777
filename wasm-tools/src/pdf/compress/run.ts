/** pdf.compress with mupdf's writer; the level picks how much of mupdf's clean-up is applied. */
import { inputSize, type ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, stem } from "../../runtime/context";
import { openWithMupdf } from "../common/open";
import { emitInput, emitOutput, saveBuffer } from "../common/write";
import type { Params } from "./manifest";

/**
 * mupdf save options for a level 1..9 (garbage=4 deduplicates identical streams; objstms packs
 * objects). compression-effort is left at mupdf's default below 9: low values store streams
 * uncompressed.
 */
export function saveOptions(level: number): string {
  const options = ["compress"];
  if (level >= 3) options.push("compress-images", "compress-fonts");
  options.push(`garbage=${level <= 2 ? 1 : level <= 4 ? 2 : level === 5 ? 3 : 4}`);
  if (level >= 6) options.push("objstms");
  if (level >= 8) options.push("clean");
  if (level >= 9) options.push("sanitize", "compression-effort=100");
  return options.join(",");
}

export const run: ToolRun<Params> = async ([input], { level }, ctx) => {
  // garbage=4 compares streams to deduplicate them: cheaper from a copy in mupdf's heap than from a stream.
  const pdf = await openWithMupdf(input, { whole: level >= 6 });
  try {
    checkpoint(ctx);
    ctx.onProgress(0.1, "rewriting");
    const name = `${stem(input.name)}-compressed.pdf`;
    const buffer = saveBuffer(pdf.doc, input.name, saveOptions(level));
    try {
      const bytes = buffer.asUint8Array();
      // Never hand back a bigger file than the one we were given.
      return [bytes.length < inputSize(input) ? await emitOutput(ctx, name, "pdf", bytes) : await emitInput(ctx, input, name, "pdf")];
    } finally {
      buffer.destroy();
    }
  } finally {
    pdf.close();
  }
};
