/**
 * Random access to a tool's input: the host file at `ToolInput.path` read a range at a time (the
 * server), the browser's File or Blob (`ToolInput.blob`) sliced a range at a time, else the bytes
 * in hand. So a reader asks for what it needs, and no more than that is in memory.
 */
import { inputSize, type ToolInput } from "@vektor/shared/tools/manifest";
import { hostFileAccess, type HostReadFile } from "../../runtime/host-files";

export interface ByteSource {
  /** The whole input's size. */
  size: number;
  /**
   * Bytes `offset` to `offset + length`, fewer where the input ends first: a view of the bytes in
   * hand, else read into `into` when it is large enough (a reader's reused buffer: big buffers
   * dropped after each read pile up outside the collector's sight), else into a new buffer.
   */
  read(offset: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A source over bytes in memory (no copies: ranges are views). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length)),
    close: async () => {},
  };
}

function fileSource(file: HostReadFile, size: number): ByteSource {
  return {
    size,
    async read(offset, length, reuse) {
      const wanted = Math.max(0, Math.min(length, size - offset));
      const into = reuse && reuse.length >= wanted ? reuse.subarray(0, wanted) : new Uint8Array(wanted);
      let done = 0;
      while (done < into.length) {
        const n = await file.read(into.subarray(done), offset + done);
        if (n === 0) break;
        done += n;
      }
      return into.subarray(0, done);
    },
    close: () => file.close(),
  };
}

/** A source over a Blob (a browser's File), each range read on its own. */
function blobSource(blob: Blob): ByteSource {
  return {
    size: blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    close: async () => {},
  };
}

/** The input as a source: its host file or Blob when it has one, else its bytes. Close it when done. */
export async function openSource(input: ToolInput): Promise<ByteSource> {
  if (input.blob) return blobSource(input.blob);
  if (!input.path) return bytesSource(input.bytes);
  return fileSource(await hostFileAccess().openRead(input.path), inputSize(input));
}
