/**
 * Where a tool's output goes, a piece at a time: a file in the host's `RunContext.outputDir` (the
 * server: returned by path, never whole in memory), else bytes in memory returned as before (the
 * browser). Writers append; a header known only at the end is patched in place.
 */
import { mimeOf, type FormatId } from "@vektor/shared/formats";
import type { RunContext, ToolOutput } from "@vektor/shared/tools/manifest";
import { output } from "../../runtime/context";
import { hostFileAccess } from "../../runtime/host-files";

export interface OutputSink {
  write(bytes: Uint8Array): Promise<void>;
  /** Overwrites bytes already written, from `position`. */
  patch(position: number, bytes: Uint8Array): Promise<void>;
  /** Closes the sink and answers the output. */
  finish(): Promise<ToolOutput>;
  /** Closes the sink after a failure (the host removes the job's folder). */
  abort(): Promise<void>;
}

/** Opens an output (see openOutput), lets `write` fill it and answers it; closed also when `write` fails. */
export async function writeOutput(ctx: RunContext, name: string, format: FormatId, size: number | undefined, write: (sink: OutputSink) => Promise<void>): Promise<ToolOutput> {
  const sink = await openOutput(ctx, name, format, size);
  try {
    await write(sink);
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return sink.finish();
}

/**
 * An output named `name`. `size`, when the writer knows it, lets the memory sink fill one buffer
 * instead of joining pieces at the end (half the peak).
 */
export async function openOutput(ctx: RunContext, name: string, format: FormatId, size?: number): Promise<OutputSink> {
  if (!ctx.outputDir) return size === undefined ? piecesSink(name, format) : bufferSink(name, format, size);
  // A fixed file name: the output's own name comes from the input's and is the host's to store.
  const { file, path } = await hostFileAccess().create(ctx.outputDir, `output.${format}`);
  return {
    write: (bytes) => file.write(bytes),
    patch: (position, bytes) => file.write(bytes, position),
    async finish() {
      await file.close();
      return { name, bytes: new Uint8Array(0), mime: mimeOf(format), path };
    },
    abort: () => file.close(),
  };
}

function bufferSink(name: string, format: FormatId, size: number): OutputSink {
  const out = new Uint8Array(size);
  let at = 0;
  return {
    write: async (bytes) => {
      out.set(bytes, at);
      at += bytes.length;
    },
    patch: async (position, bytes) => out.set(bytes, position),
    finish: async () => output(name, format, at === size ? out : out.slice(0, at)),
    abort: async () => {},
  };
}

function piecesSink(name: string, format: FormatId): OutputSink {
  const pieces: Uint8Array[] = [];
  return {
    write: async (bytes) => void pieces.push(bytes.slice()),
    patch: async (position, bytes) => {
      let start = 0;
      for (const piece of pieces) {
        const from = Math.max(position, start);
        const to = Math.min(position + bytes.length, start + piece.length);
        if (from < to) piece.set(bytes.subarray(from - position, to - position), from - start);
        start += piece.length;
      }
    },
    finish: async () => output(name, format, concat(pieces)),
    abort: async () => void pieces.splice(0),
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
