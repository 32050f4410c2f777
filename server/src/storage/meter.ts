/**
 * Counts and hashes bytes as they stream past and stops a body at its cap, so both backends
 * report size and digest and enforce `maxBytes` the same way without holding the body.
 */
import { StorageError } from "./types";

/** A size limit and the error that reports passing it (too-large for puts, size-mismatch for parts). */
export interface ByteCap {
  max: number;
  /** The error to throw once the body passes `max` bytes. */
  error: () => StorageError;
}

/** Size and (unless `algorithm` is null) digest of a body, taken as it streams through. */
export class ByteMeter {
  bytes = 0;
  private readonly hasher: Bun.CryptoHasher | null;

  constructor(
    algorithm: "sha256" | null,
    private readonly cap?: ByteCap,
  ) {
    this.hasher = algorithm ? new Bun.CryptoHasher(algorithm) : null;
  }

  /** Throws the cap's error before hashing a chunk that would pass the cap. */
  update(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    if (this.cap && this.bytes > this.cap.max) throw this.cap.error();
    this.hasher?.update(chunk);
  }

  hex(): string {
    if (!this.hasher) throw new Error("this meter only counts bytes");
    return this.hasher.digest("hex");
  }
}

/** The too-large error a put reports for a body over `maxBytes`. */
export function bodyTooLarge(maxBytes: number): StorageError {
  return new StorageError(`body is larger than ${maxBytes} bytes`, "too-large");
}

/** A sha256 meter for a put, capped at `maxBytes` when given. */
export function putMeter(maxBytes: number | undefined): ByteMeter {
  return new ByteMeter("sha256", maxBytes === undefined ? undefined : { max: maxBytes, error: () => bodyTooLarge(maxBytes) });
}

/** sha256 hex of a whole stream, read chunk by chunk. */
export async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) hasher.update(r.value);
  return hasher.digest("hex");
}
