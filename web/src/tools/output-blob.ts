/**
 * A tool's output on the page: a File on disk (ToolOutput.blob: the tool worker wrote it to the
 * Origin Private File System) or bytes in memory. Both become a Blob of the output's type without
 * reading the File: a slice of a File refers to the same bytes on disk.
 */
import type { ToolOutput } from "@vektor/shared/tools/manifest";

/** The output as a Blob of type `output.mime`. */
export function outputBlob(output: ToolOutput): Blob {
  const { blob } = output;
  if (!blob) return new Blob([output.bytes as Uint8Array<ArrayBuffer>], { type: output.mime });
  return blob.type === output.mime ? blob : blob.slice(0, blob.size, output.mime);
}

/** The output's whole bytes (read from disk when it is a File), for a viewer that needs them in memory. */
export async function outputBytes(output: ToolOutput): Promise<Uint8Array> {
  return output.blob ? new Uint8Array(await output.blob.arrayBuffer()) : output.bytes;
}
