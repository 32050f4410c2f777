/**
 * A glTF 2.0 binary (GLB) writer for triangle meshes: one glTF mesh per part (named), one
 * material per distinct colour, POSITION and NORMAL as float vectors with exact min/max, the
 * smallest index type that fits, every chunk and buffer view aligned to 4 bytes. The output
 * depends only on the input arrays and options, so the same scene gives the same bytes.
 */
import { paceGarbage } from "../../runtime/engine-garbage";
import { Utf8Blocks } from "../../runtime/utf8-blocks";
import { hexColor } from "./color";
import type { Extras, MeshPart, MeshScene, Primitive, Rgba, SceneNode } from "./types";

/** How the file is written. */
export interface GlbOptions {
  /** `asset.generator`, e.g. `vektor cad.convert (occt-import-js 0.0.23)`. */
  generator: string;
  /** Multiplies every position (e.g. 0.001 to turn millimetres into glTF's metres). */
  scale?: number;
  /** Materials render both sides (IFC geometry is not always consistently wound). */
  doubleSided?: boolean;
}

const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

interface GltfNode {
  name: string;
  mesh?: number;
  children?: number[];
  extras?: Extras;
}

const utf8 = new TextEncoder();

/**
 * Where a big JSON array's text goes as it is written, instead of staying in memory (a temporary
 * file beside a streamed GLB); its bytes take the array's place in the JSON chunk.
 */
export interface TextSpill {
  write(bytes: Uint8Array): void;
  /** Bytes written so far. */
  readonly byteLength: number;
}

/** A piece of the JSON chunk's text: bytes, or an array's text that went to its spill. */
export type JsonPiece = Uint8Array | TextSpill;

/**
 * A JSON array written out as UTF-8 as its items come (the same text JSON.stringify gives for the
 * whole array): a model of 200k elements has about 1.4 million accessors, buffer views, meshes
 * and nodes, which took several times their text's size as objects or strings.
 */
class JsonArray {
  private readonly text = new Utf8Blocks();
  count = 0;

  /** `spill`: where each filled block of the text goes (else it is kept). */
  constructor(private readonly spill?: TextSpill) {
    this.text.append("[");
  }

  /** Appends `item`; answers its index. */
  push(item: unknown): number {
    paceGarbage(); // every item leaves a string and an object behind: see runtime/engine-garbage.ts
    this.text.append((this.count ? "," : "") + JSON.stringify(item));
    if (this.spill) for (const block of this.text.takeFull()) this.spill.write(block);
    return this.count++;
  }

  /** The array's text, closed, in pieces (its spill, all of it written there). */
  bytes(): JsonPiece[] {
    this.text.append("]");
    if (!this.spill) return this.text.pieces();
    for (const piece of this.text.pieces()) this.spill.write(piece);
    return [this.spill];
  }
}

/**
 * Lays binary pieces out at 4-byte aligned offsets and describes them as buffer views; each
 * piece is written later, straight into the GLB (once the JSON before the BIN chunk is known),
 * so no copy of the scene's arrays is made first.
 */
export class BinaryLayout {
  readonly pieces: { offset: number; write: (bin: ArrayBuffer, byteOffset: number) => void }[] = [];
  readonly views: JsonArray;
  length = 0;

  /** `viewsSpill`: where the buffer views' JSON text goes as it is written (else it is kept). */
  constructor(viewsSpill?: TextSpill) {
    this.views = new JsonArray(viewsSpill);
  }

  add(byteLength: number, target: number, write: (bin: ArrayBuffer, byteOffset: number) => void): number {
    const offset = this.length;
    this.length = align4(offset + byteLength);
    this.place(offset, write);
    return this.views.push({ buffer: 0, byteOffset: offset, byteLength, target });
  }

  /** Keeps the piece at `offset` to be written by writeInto. */
  protected place(offset: number, write: (bin: ArrayBuffer, byteOffset: number) => void): void {
    this.pieces.push({ offset, write });
  }

  /** Writes every piece into `bin` from `byteOffset` (4-aligned), the gaps left as zeros. */
  writeInto(bin: ArrayBuffer, byteOffset: number): void {
    for (const piece of this.pieces) piece.write(bin, byteOffset + piece.offset);
  }
}

/** How much of a streamed BIN chunk gathers before it goes out (a piece bigger than this goes out alone). */
const STREAM_BLOCK = 4 * 1024 * 1024;

/**
 * A BIN chunk written out as its pieces come instead of kept for later: each piece is written at
 * once into a block, and full blocks go to `sink` with their position in the chunk (a temporary
 * file beside the output). The scene's arrays can then go as soon as they are laid out. The
 * bytes are the same as BinaryLayout.writeInto's: the same offsets, the gaps zeros.
 */
export class StreamedBinary extends BinaryLayout {
  private block = new ArrayBuffer(STREAM_BLOCK);
  /** The chunk's offset of the block's first byte (4-aligned). */
  private base = 0;

  constructor(
    private readonly sink: (bytes: Uint8Array, position: number) => void,
    viewsSpill?: TextSpill,
  ) {
    super(viewsSpill);
  }

  protected override place(offset: number, write: (bin: ArrayBuffer, byteOffset: number) => void): void {
    if (this.length - this.base > this.block.byteLength) {
      this.flushTo(offset);
      if (this.length - offset > this.block.byteLength) this.block = new ArrayBuffer(this.length - offset);
    }
    write(this.block, offset - this.base);
  }

  /** Sends what the block holds up to the chunk's `end` and starts the block there, zeroed. */
  private flushTo(end: number): void {
    if (end > this.base) this.sink(new Uint8Array(this.block, 0, end - this.base), this.base);
    if (this.block.byteLength > STREAM_BLOCK) this.block = new ArrayBuffer(STREAM_BLOCK);
    else new Uint8Array(this.block, 0, end - this.base).fill(0);
    this.base = end;
  }

  /** Sends the rest of the chunk (its padding included). */
  flush(): void {
    this.flushTo(this.length);
  }

  override writeInto(): void {
    throw new Error("a streamed BIN chunk was sent to its sink as it came");
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Position `i` of `src` times `scale`, as float32. */
function scaled(src: Float32Array, i: number, scale: number): number {
  return scale === 1 ? src[i] : Math.fround(src[i] * scale);
}

/** The per-axis min and max of the positions times `scale`; throws on a position that is not finite. */
function positionBounds(src: Float32Array, scale: number): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < src.length; i++) {
    const v = scaled(src, i, scale);
    if (!Number.isFinite(v)) throw new Error(`position ${Math.floor(i / 3)} is not a finite number`);
    const axis = i % 3;
    if (v < min[axis]) min[axis] = v;
    if (v > max[axis]) max[axis] = v;
  }
  return { min, max };
}

/** Unit-length copies of `src` (glTF requires unit normals); a zero or broken normal becomes +Z. */
export function unitNormals(src: Float32Array): Float32Array {
  return unitNormalsInto(src, new Float32Array(src.length));
}

/** `unitNormals` written into `out` (zero-filled, as long as `src`). */
function unitNormalsInto(src: Float32Array, out: Float32Array): Float32Array {
  for (let i = 0; i + 2 < src.length; i += 3) {
    const x = src[i];
    const y = src[i + 1];
    const z = src[i + 2];
    const length = Math.sqrt(x * x + y * y + z * z);
    if (length > 1e-12 && Number.isFinite(length)) {
      out[i] = x / length;
      out[i + 1] = y / length;
      out[i + 2] = z / length;
    } else {
      out[i + 2] = 1;
    }
  }
  return out;
}

function materialKey(c: Rgba): string {
  return `${c.r},${c.g},${c.b},${c.a}`;
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 1;
}

/**
 * A glTF scene built a part at a time into `bin`: each part's buffer views are laid out (or, in a
 * StreamedBinary, written) and its accessors and mesh written out as JSON text as it is added, so
 * a caller streaming parts need not keep them. `json` then gives the whole JSON chunk's text.
 */
export class GlbBuilder {
  private readonly scale: number;
  private readonly accessors: JsonArray;
  private readonly materials: object[] = [];
  private readonly materialIndex = new Map<string, number>();
  private readonly meshes: JsonArray;
  // Weak: a streamed scene's arrays must go once written (a later part that shares one keeps it alive).
  private readonly positionAccessors = new WeakMap<Float32Array, number>();
  private readonly normalAccessors = new WeakMap<Float32Array, number>();

  /** `spill`: where the meshes' and accessors' JSON text goes as it is written (else it is kept). */
  constructor(
    private readonly options: GlbOptions,
    readonly bin: BinaryLayout,
    spill?: { meshes: TextSpill; accessors: TextSpill },
  ) {
    this.scale = options.scale ?? 1;
    this.meshes = new JsonArray(spill?.meshes);
    this.accessors = new JsonArray(spill?.accessors);
  }

  /** Adds `part` as a glTF mesh; answers its index, or undefined when it has no triangles. */
  addPart(part: MeshPart): number | undefined {
    const primitives = part.primitives.map((p) => this.primitive(p)).filter((p): p is object => p !== undefined);
    if (primitives.length === 0) return undefined;
    return this.meshes.push({ name: part.name, primitives, ...(part.extras ? { extras: part.extras } : {}) });
  }

  /** The JSON chunk's text (the text JSON.stringify gives for the whole glTF object), in pieces; `meshOf` maps a node's part to its mesh. */
  json(roots: SceneNode[], meshOf: (part: number) => number | undefined): JsonPiece[] {
    const nodes = new JsonArray();
    const addNode = (node: SceneNode): number | undefined => {
      const mesh = node.part === undefined ? undefined : meshOf(node.part);
      const children = (node.children ?? []).map(addNode).filter((n): n is number => n !== undefined);
      if (mesh === undefined && children.length === 0) return undefined; // nothing to show below it
      const gltfNode: GltfNode = { name: node.name, ...(mesh !== undefined ? { mesh } : {}), ...(children.length ? { children } : {}), ...(node.extras ? { extras: node.extras } : {}) };
      return nodes.push(gltfNode);
    };
    const rootNodes = roots.map(addNode).filter((n): n is number => n !== undefined);
    if (this.meshes.count === 0 || rootNodes.length === 0) throw new Error("the scene has no triangles to write");
    return [
      `{"asset":${JSON.stringify({ version: "2.0", generator: this.options.generator })},"scene":0,"scenes":${JSON.stringify([{ nodes: rootNodes }])},"nodes":`,
      ...nodes.bytes(),
      ',"meshes":',
      ...this.meshes.bytes(),
      `,"materials":${JSON.stringify(this.materials)},"accessors":`,
      ...this.accessors.bytes(),
      ',"bufferViews":',
      ...this.bin.views.bytes(),
      `,"buffers":${JSON.stringify([{ byteLength: this.bin.length }])}}`,
    ].map((piece) => (typeof piece === "string" ? utf8.encode(piece) : piece));
  }

  private material(color: Rgba): number {
    const key = materialKey(color);
    let index = this.materialIndex.get(key);
    if (index === undefined) {
      const a = clamp01(color.a);
      this.materials.push({
        name: a < 1 ? `${hexColor(color)} ${Math.round(a * 100)}%` : hexColor(color),
        pbrMetallicRoughness: { baseColorFactor: [clamp01(color.r), clamp01(color.g), clamp01(color.b), a], metallicFactor: 0, roughnessFactor: 0.6 },
        ...(a < 1 ? { alphaMode: "BLEND" } : {}),
        ...(this.options.doubleSided ? { doubleSided: true } : {}),
      });
      index = this.materials.length - 1;
      this.materialIndex.set(key, index);
    }
    return index;
  }

  private positionAccessor(positions: Float32Array): number {
    let index = this.positionAccessors.get(positions);
    if (index === undefined) {
      const scale = this.scale;
      const { min, max } = positionBounds(positions, scale);
      const view = this.bin.add(positions.length * 4, ARRAY_BUFFER, (out, at) => {
        const data = new Float32Array(out, at, positions.length);
        for (let i = 0; i < positions.length; i++) data[i] = scaled(positions, i, scale);
      });
      index = this.accessors.push({ bufferView: view, componentType: FLOAT, count: positions.length / 3, type: "VEC3", min, max });
      this.positionAccessors.set(positions, index);
    }
    return index;
  }

  private normalAccessor(normals: Float32Array): number {
    let index = this.normalAccessors.get(normals);
    if (index === undefined) {
      const view = this.bin.add(normals.length * 4, ARRAY_BUFFER, (out, at) => unitNormalsInto(normals, new Float32Array(out, at, normals.length)));
      index = this.accessors.push({ bufferView: view, componentType: FLOAT, count: normals.length / 3, type: "VEC3" });
      this.normalAccessors.set(normals, index);
    }
    return index;
  }

  private indexAccessor(indices: Uint32Array, vertexCount: number): number {
    const count = indices.length - (indices.length % 3);
    for (let i = 0; i < count; i++) {
      if (indices[i] >= vertexCount) throw new Error(`index ${indices[i]} points past the ${vertexCount} vertices`);
    }
    // glTF forbids the type's maximum value as an index, so 16 bits serve up to 65535 vertices.
    const small = vertexCount <= 65535;
    const view = this.bin.add(count * (small ? 2 : 4), ELEMENT_ARRAY_BUFFER, (out, at) => {
      const data = small ? new Uint16Array(out, at, count) : new Uint32Array(out, at, count);
      data.set(indices.subarray(0, count));
    });
    return this.accessors.push({ bufferView: view, componentType: small ? UNSIGNED_SHORT : UNSIGNED_INT, count, type: "SCALAR" });
  }

  private primitive(p: Primitive): object | undefined {
    const vertexCount = Math.floor(p.positions.length / 3);
    if (p.indices.length < 3 || vertexCount === 0) return undefined;
    const attributes: Record<string, number> = { POSITION: this.positionAccessor(p.positions) };
    if (p.normals && p.normals.length === p.positions.length) attributes.NORMAL = this.normalAccessor(p.normals);
    return { attributes, indices: this.indexAccessor(p.indices, vertexCount), material: this.material(p.color) };
  }
}

/** Writes `scene` as GLB bytes. Primitives without triangles and parts without primitives are left out. */
export function writeGlb(scene: MeshScene, options: GlbOptions): Uint8Array {
  const glb = new GlbBuilder(options, new BinaryLayout());
  const meshOfPart = scene.parts.map((part) => glb.addPart(part));
  const roots = scene.roots ?? scene.parts.map((part, i): SceneNode => ({ name: part.name, part: i }));
  // Nothing spills here: every piece is bytes.
  return packGlb(glb.json(roots, (part) => meshOfPart[part]) as Uint8Array[], glb.bin);
}

/** The GLB container's framing around the JSON and BIN chunks: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros. */
export interface GlbFraming {
  /** The file's header and the JSON chunk's. */
  head: Uint8Array;
  /** Spaces after the JSON. */
  jsonPadding: Uint8Array;
  /** The BIN chunk's header. */
  binHead: Uint8Array;
  /** The BIN chunk's length (the buffer's, padded). */
  binLength: number;
  /** The whole file's length. */
  total: number;
}

/** The framing of a GLB whose JSON text is `json` and whose buffer is `bufferLength` bytes. */
export function glbFraming(json: JsonPiece[], bufferLength: number): GlbFraming {
  const jsonBytes = json.reduce((n, piece) => n + piece.byteLength, 0);
  const jsonLength = align4(jsonBytes);
  const binLength = align4(bufferLength);
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const head = new Uint8Array(20);
  const view = new DataView(head.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  const binHead = new Uint8Array(8);
  new DataView(binHead.buffer).setUint32(0, binLength, true);
  new DataView(binHead.buffer).setUint32(4, CHUNK_BIN, true);
  return { head, jsonPadding: new Uint8Array(jsonLength - jsonBytes).fill(0x20), binHead, binLength, total };
}

/** The whole GLB in memory, its buffer views written straight into it. */
function packGlb(json: Uint8Array[], binary: BinaryLayout): Uint8Array {
  const framing = glbFraming(json, binary.length);
  const out = new Uint8Array(framing.total);
  let at = 0;
  for (const piece of [framing.head, ...json, framing.jsonPadding, framing.binHead]) {
    out.set(piece, at);
    at += piece.byteLength;
  }
  binary.writeInto(out.buffer, at);
  return out;
}
