/**
 * A tool input read a piece at a time, wherever the host put it: its host file (ToolInput.path,
 * the server's tool workers), its Blob (ToolInput.blob: the browser's picked File, in a Web
 * Worker) or its bytes. For engines that pull their input as they go (mupdf's streams, web-ifc's
 * loader), so the whole file need not be copied into memory first.
 */
import { inputSize, ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import { blobReadAt, type ReadAt } from "./blob-reads";
import { hostFileAccess } from "./host-files";

/** Synchronous reads of the whole input, whatever the host gave. */
export function inputReader(input: ToolInput): ReadAt {
  const { path, blob } = input;
  if (path) {
    const access = hostFileAccess();
    if (!access.readAtSync) throw new ToolError("TOOL_FAILED", "The host passed a file path but offers no synchronous reads (HostFileAccess.readAtSync)");
    return (into, position) => access.readAtSync!(path, into, position);
  }
  if (blob) return blobReadAt(blob);
  return (into, position) => {
    const piece = input.bytes.subarray(position, position + into.length);
    into.set(piece);
    return piece.length;
  };
}

/** The input's last `length` bytes (its first ones are always in `bytes`). */
export function inputTail(input: ToolInput, read: ReadAt, length: number): Uint8Array {
  const size = inputSize(input);
  const tail = new Uint8Array(Math.min(length, size));
  return tail.subarray(0, read(tail, size - tail.length));
}
