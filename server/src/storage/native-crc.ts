/**
 * yazl computes each entry's CRC-32 with buffer-crc32, a JavaScript table loop that capped the
 * batch ZIP build at ~56% of `zip -0`'s speed (bench/batch). This points the very module
 * instance yazl requires at the runtime's native zlib CRC-32 (same result, several times
 * faster), once, when the ZIP module loads.
 */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { crc32 } from "node:zlib";

type BufferCrc32 = { unsigned: (buf: Uint8Array, previous?: number) => number };

/** The buffer-crc32 instance yazl itself loads (resolved from yazl's own location). */
export function yazlCrc32(): BufferCrc32 {
  const fromServer = createRequire(import.meta.path);
  const fromYazl = createRequire(realpathSync(fromServer.resolve("yazl")));
  return fromYazl("buffer-crc32") as BufferCrc32;
}

export function useNativeCrc32(): void {
  const lib = yazlCrc32();
  lib.unsigned = (buf, previous) => crc32(buf, previous ?? 0);
}
