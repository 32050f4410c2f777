/**
 * Just enough of the WebAssembly binary format to read a module's exported function bodies and
 * to write a small module by hand (runtime/emscripten-invokes.ts builds one at load time). The
 * format: a header, then sections of `id, size, bytes`; numbers are LEB128.
 */

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

/** A vector: its length, then its items. */
export function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/** A name (ASCII). */
export function name(text: string): number[] {
  return [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

export function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

export const WASM_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

const SECTION = { import: 2, export: 7, code: 10 } as const;
const KIND_FUNC = 0;

/** Reads a module's bytes from the start, LEB128 by LEB128. */
class Reader {
  at = WASM_HEADER.length;
  constructor(readonly bytes: Uint8Array) {}

  u32(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      if (this.at >= this.bytes.length || shift > 28) throw new Error("not a WebAssembly module: a number runs past its end");
      const byte = this.bytes[this.at++];
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
    }
  }

  text(): string {
    const length = this.u32();
    this.at += length;
    return new TextDecoder().decode(this.bytes.subarray(this.at - length, this.at));
  }

  limits(): void {
    const flags = this.bytes[this.at++];
    this.u32();
    if (flags & 1) this.u32();
  }
}

/** How many of a module's functions are imports (defined functions are numbered after them). */
function importedFunctions(r: Reader, end: number): number {
  let count = 0;
  for (let n = r.u32(); n > 0 && r.at < end; n--) {
    r.text();
    r.text();
    const kind = r.bytes[r.at++];
    if (kind === KIND_FUNC) (r.u32(), count++);
    else if (kind === 1) (r.at++, r.limits()); // table: element type, limits
    else if (kind === 2) r.limits(); // memory
    else if (kind === 3) r.at += 2; // global: value type, mutability
    else if (kind === 4) (r.at++, r.u32()); // tag: attribute, type
  }
  return count;
}

/** Each exported function's name and body (locals and code, as in the code section); throws on bytes that are not a module. */
export function exportedBodies(bytes: Uint8Array): Map<string, Uint8Array> {
  if (bytes.length < WASM_HEADER.length || WASM_HEADER.some((b, i) => bytes[i] !== b)) throw new Error("not a WebAssembly module");
  const r = new Reader(bytes);
  let imported = 0;
  const exports = new Map<string, number>();
  const bodies: Uint8Array[] = [];
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const size = r.u32();
    const end = r.at + size;
    if (end > bytes.length) throw new Error("not a WebAssembly module: a section runs past its end");
    if (id === SECTION.import) imported = importedFunctions(r, end);
    if (id === SECTION.export) {
      for (let n = r.u32(); n > 0; n--) {
        const key = r.text();
        const kind = bytes[r.at++];
        const index = r.u32();
        if (kind === KIND_FUNC) exports.set(key, index);
      }
    }
    if (id === SECTION.code) {
      for (let n = r.u32(); n > 0; n--) {
        const length = r.u32();
        bodies.push(bytes.subarray(r.at, r.at + length));
        r.at += length;
      }
    }
    r.at = end;
  }
  const out = new Map<string, Uint8Array>();
  for (const [key, index] of exports) {
    const body = bodies[index - imported];
    if (body) out.set(key, body);
  }
  return out;
}
