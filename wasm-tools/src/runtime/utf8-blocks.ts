/**
 * Text written out as UTF-8 as it comes, in blocks of about a megabyte: a big output (a JSON or
 * CSV of a whole model) is held once, as compact bytes, instead of as many small strings, the
 * string they are joined into and that string's encoding.
 */
const utf8 = new TextEncoder();
const BLOCK = 1024 * 1024;

export class Utf8Blocks {
  private readonly full: Uint8Array[] = [];
  private block = new Uint8Array(BLOCK);
  private used = 0;

  append(text: string): void {
    const most = text.length * 3; // UTF-8 needs at most 3 bytes per UTF-16 unit
    if (this.used + most > this.block.length) {
      this.full.push(this.block.subarray(0, this.used));
      this.block = new Uint8Array(Math.max(BLOCK, most));
      this.used = 0;
    }
    this.used += utf8.encodeInto(text, this.block.subarray(this.used)).written;
  }

  /** The blocks filled so far, handed over and forgotten (for a writer that puts them elsewhere as they fill). */
  takeFull(): Uint8Array[] {
    return this.full.splice(0);
  }

  /** The text so far, in pieces. */
  pieces(): Uint8Array[] {
    return [...this.full, this.block.subarray(0, this.used)];
  }

  /** The text so far in one array. */
  bytes(): Uint8Array {
    const pieces = this.pieces();
    const out = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const piece of pieces) {
      out.set(piece, at);
      at += piece.byteLength;
    }
    return out;
  }
}
