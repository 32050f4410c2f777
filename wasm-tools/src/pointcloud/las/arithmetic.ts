/**
 * The arithmetic decoder LASzip uses (Amir Said's FastAC, as in LASzip's arithmeticdecoder.cpp,
 * arithmeticmodel.cpp and integercompressor.cpp), only as far as a LAZ chunk table needs it: the
 * table's chunk sizes are coded with it, and laz-perf's JS API decodes points but not the table.
 * All arithmetic is unsigned 32-bit, as in the C++.
 */

const MIN_LENGTH = 0x01000000;
const BIT_SHIFT = 13;
const BIT_MAX_COUNT = 1 << BIT_SHIFT;
const SYMBOL_SHIFT = 15;
const SYMBOL_MAX_COUNT = 1 << SYMBOL_SHIFT;

/** An adaptive model of one binary symbol. */
export class BitModel {
  bit0Count = 1;
  bitCount = 2;
  bit0Prob = 1 << (BIT_SHIFT - 1);
  private cycle = 4;
  untilUpdate = 4;

  update(): void {
    if ((this.bitCount += this.cycle) > BIT_MAX_COUNT) {
      this.bitCount = (this.bitCount + 1) >>> 1;
      this.bit0Count = (this.bit0Count + 1) >>> 1;
      if (this.bit0Count === this.bitCount) this.bitCount++;
    }
    const scale = Math.floor(0x80000000 / this.bitCount);
    this.bit0Prob = (this.bit0Count * scale) >>> (31 - BIT_SHIFT);
    this.cycle = Math.min(64, (5 * this.cycle) >>> 2);
    this.untilUpdate = this.cycle;
  }
}

/** An adaptive model of `symbols` symbols (2 to 2048), with a lookup table above 16 symbols. */
export class SymbolModel {
  readonly distribution: Uint32Array;
  readonly counts: Uint32Array;
  readonly table: Uint32Array | null;
  readonly tableShift: number;
  private total = 0;
  private cycle: number;
  untilUpdate: number;

  constructor(readonly symbols: number) {
    this.distribution = new Uint32Array(symbols);
    this.counts = new Uint32Array(symbols).fill(1);
    let tableBits = 3;
    while (symbols > 1 << (tableBits + 2)) tableBits++;
    this.table = symbols > 16 ? new Uint32Array((1 << tableBits) + 2) : null;
    this.tableShift = symbols > 16 ? SYMBOL_SHIFT - tableBits : 0;
    this.cycle = symbols;
    this.untilUpdate = symbols;
    this.update();
    this.cycle = (symbols + 6) >>> 1;
    this.untilUpdate = this.cycle;
  }

  update(): void {
    if ((this.total += this.cycle) > SYMBOL_MAX_COUNT) {
      this.total = 0;
      for (let n = 0; n < this.symbols; n++) this.total += this.counts[n] = (this.counts[n] + 1) >>> 1;
    }
    const scale = Math.floor(0x80000000 / this.total);
    let sum = 0;
    let s = 0;
    const table = this.table;
    for (let k = 0; k < this.symbols; k++) {
      this.distribution[k] = (scale * sum) >>> (31 - SYMBOL_SHIFT);
      sum += this.counts[k];
      if (!table) continue;
      const w = this.distribution[k] >>> this.tableShift;
      while (s < w) table[++s] = k - 1;
    }
    if (table) {
      table[0] = 0;
      while (s <= table.length - 2) table[++s] = this.symbols - 1;
    }
    this.cycle = Math.min((this.symbols + 6) << 3, (5 * this.cycle) >>> 2);
    this.untilUpdate = this.cycle;
  }
}

/** Decodes symbols from `bytes` (reads past the end as zeros: a damaged table fails its checks instead). */
export class ArithmeticDecoder {
  private at = 0;
  private length = 0xffffffff;
  private value: number;

  constructor(private readonly bytes: Uint8Array) {
    this.value = ((this.byte() << 24) | (this.byte() << 16) | (this.byte() << 8) | this.byte()) >>> 0;
  }

  private byte(): number {
    return this.at < this.bytes.length ? this.bytes[this.at++] : (this.at++, 0);
  }

  private renormalize(): void {
    do {
      this.value = ((this.value << 8) | this.byte()) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < MIN_LENGTH);
  }

  decodeBit(m: BitModel): number {
    const x = m.bit0Prob * (this.length >>> BIT_SHIFT);
    const bit = this.value >= x ? 1 : 0;
    if (bit === 0) {
      this.length = x;
      m.bit0Count++;
    } else {
      this.value -= x;
      this.length -= x;
    }
    if (this.length < MIN_LENGTH) this.renormalize();
    if (--m.untilUpdate === 0) m.update();
    return bit;
  }

  decodeSymbol(m: SymbolModel): number {
    let sym: number;
    let x: number;
    let y = this.length;
    this.length >>>= SYMBOL_SHIFT;
    if (m.table) {
      const dv = Math.floor(this.value / this.length);
      // Clamped: a damaged stream must not index past the table (and decode NaN lengths forever).
      const t = Math.min(dv >>> m.tableShift, m.table.length - 2);
      sym = m.table[t];
      let n = m.table[t + 1] + 1;
      while (n > sym + 1) {
        const k = (sym + n) >>> 1;
        if (m.distribution[k] > dv) n = k;
        else sym = k;
      }
      x = m.distribution[sym] * this.length;
      if (sym !== m.symbols - 1) y = m.distribution[sym + 1] * this.length;
    } else {
      x = sym = 0;
      let n = m.symbols;
      let k = n >>> 1;
      do {
        const z = this.length * m.distribution[k];
        if (z > this.value) {
          n = k;
          y = z;
        } else {
          sym = k;
          x = z;
        }
      } while ((k = (sym + n) >>> 1) !== sym);
    }
    this.value -= x;
    this.length = y - x;
    if (this.length < MIN_LENGTH) this.renormalize();
    m.counts[sym]++;
    if (--m.untilUpdate === 0) m.update();
    return sym;
  }

  /** `bits` raw bits (up to 32). */
  readBits(bits: number): number {
    if (bits > 19) {
      const low = this.readBits(16);
      return ((this.readBits(bits - 16) << 16) | low) >>> 0;
    }
    this.length >>>= bits;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < MIN_LENGTH) this.renormalize();
    return sym;
  }
}

/** Corrector sizes up to 2^BITS_HIGH are coded whole; larger ones as high bits plus raw low bits. */
const BITS_HIGH = 8;

/**
 * The models of LASZip's IntegerCompressor for 32-bit values (corrector range 2^32): each value
 * is coded as a corrector to a prediction, in one of `contexts` contexts; per context a model of
 * the corrector's bit count k, and per k a model of the corrector within its interval.
 */
class IntegerModels {
  protected readonly bitsModels: SymbolModel[];
  protected readonly correctors: SymbolModel[];
  protected readonly corrector0 = new BitModel();

  constructor(contexts: number) {
    this.bitsModels = Array.from({ length: contexts }, () => new SymbolModel(33));
    // index 0 unused: a zero-bit corrector is coded with corrector0
    this.correctors = Array.from({ length: 33 }, (_, i) => new SymbolModel(1 << Math.max(1, Math.min(i, BITS_HIGH))));
  }
}

/** LASZip's IntegerCompressor, decompressing side. */
export class IntegerDecompressor extends IntegerModels {
  constructor(
    private readonly dec: ArithmeticDecoder,
    contexts: number,
  ) {
    super(contexts);
  }

  /** The value predicted as `pred` in `context` (both 32-bit, wrapping as in C). */
  decompress(pred: number, context: number): number {
    return (pred + this.corrector(this.bitsModels[context])) | 0;
  }

  private corrector(bits: SymbolModel): number {
    const k = this.dec.decodeSymbol(bits);
    if (k === 0) return this.dec.decodeBit(this.corrector0);
    if (k >= 32) return -0x80000000;
    let c = this.dec.decodeSymbol(this.correctors[k]);
    if (k > BITS_HIGH) {
      const low = k - BITS_HIGH;
      c = ((c << low) | this.dec.readBits(low)) >>> 0;
    }
    // c lies in [0, 2^k); its upper half maps to [2^(k-1) + 1, 2^k], its lower half to [-(2^k - 1), -2^(k-1)]
    return c >= 2 ** (k - 1) ? c + 1 : c - (2 ** k - 1);
  }
}

/** The encoding side (LASzip's arithmeticencoder.cpp): writes the chunk tables the reader builds. */
export class ArithmeticEncoder {
  private readonly out: number[] = [];
  private base = 0;
  private length = 0xffffffff;

  /** Adds a carry into the bytes already written. */
  private carry(): void {
    let p = this.out.length - 1;
    while (this.out[p] === 0xff) this.out[p--] = 0;
    this.out[p]++;
  }

  /** `base + x` (unsigned, with the carry it may cause). */
  private advance(x: number): void {
    const sum = this.base + x;
    this.base = sum >>> 0;
    if (sum > 0xffffffff) this.carry();
  }

  private renormalize(): void {
    do {
      this.out.push(this.base >>> 24);
      this.base = (this.base << 8) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < MIN_LENGTH);
  }

  encodeBit(m: BitModel, bit: number): void {
    const x = m.bit0Prob * (this.length >>> BIT_SHIFT);
    if (bit === 0) {
      this.length = x;
      m.bit0Count++;
    } else {
      this.advance(x);
      this.length -= x;
    }
    if (this.length < MIN_LENGTH) this.renormalize();
    if (--m.untilUpdate === 0) m.update();
  }

  encodeSymbol(m: SymbolModel, sym: number): void {
    if (sym === m.symbols - 1) {
      const x = m.distribution[sym] * (this.length >>> SYMBOL_SHIFT);
      this.advance(x);
      this.length -= x;
    } else {
      this.length >>>= SYMBOL_SHIFT;
      const x = m.distribution[sym] * this.length;
      this.advance(x);
      this.length = m.distribution[sym + 1] * this.length - x;
    }
    if (this.length < MIN_LENGTH) this.renormalize();
    m.counts[sym]++;
    if (--m.untilUpdate === 0) m.update();
  }

  writeBits(bits: number, sym: number): void {
    if (bits > 19) {
      this.writeBits(16, sym & 0xffff);
      return this.writeBits(bits - 16, sym >>> 16);
    }
    this.length >>>= bits;
    this.advance(sym * this.length);
    if (this.length < MIN_LENGTH) this.renormalize();
  }

  /** Flushes the coder: the bytes written, with the trailing zeros the decoder reads ahead. */
  done(): Uint8Array {
    const another = this.length > 2 * MIN_LENGTH;
    this.advance(another ? MIN_LENGTH : MIN_LENGTH >>> 1);
    this.length = another ? MIN_LENGTH >>> 1 : MIN_LENGTH >>> 9;
    this.renormalize();
    this.out.push(0, 0);
    if (another) this.out.push(0);
    return Uint8Array.from(this.out);
  }
}

/** LASZip's IntegerCompressor, compressing side. */
export class IntegerCompressor extends IntegerModels {
  constructor(
    private readonly enc: ArithmeticEncoder,
    contexts: number,
  ) {
    super(contexts);
  }

  compress(pred: number, real: number, context: number): void {
    const c = (real - pred) | 0;
    // the tightest interval [-(2^k - 1), 2^k] holding c
    let k = 0;
    for (let c1 = c <= 0 ? -c : c - 1; c1 > 0; c1 = Math.floor(c1 / 2)) k++;
    this.enc.encodeSymbol(this.bitsModels[context], k);
    if (k === 0) return this.enc.encodeBit(this.corrector0, c);
    if (k >= 32) return;
    const shifted = c < 0 ? c + (2 ** k - 1) : c - 1;
    if (k <= BITS_HIGH) return this.enc.encodeSymbol(this.correctors[k], shifted);
    const low = k - BITS_HIGH;
    this.enc.encodeSymbol(this.correctors[k], Math.floor(shifted / 2 ** low));
    this.enc.writeBits(low, shifted % 2 ** low);
  }
}
