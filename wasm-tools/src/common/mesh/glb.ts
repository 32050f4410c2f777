/**
 * A glTF 2.0 binary (GLB) writer for triangle meshes: one glTF mesh per part (named), one
 * material per distinct colour, POSITION and NORMAL as float vectors with exact min/max, the
 * smallest index type that fits, every chunk and buffer view aligned to 4 bytes. The output
 * depends only on the input arrays and options, so the same scene gives the same bytes.
 */
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

/** Collects binary pieces at 4-byte aligned offsets and describes them as buffer views. */
class BinaryBuilder {
  readonly pieces: { offset: number; bytes: Uint8Array }[] = [];
  readonly views: { buffer: 0; byteOffset: number; byteLength: number; target: number }[] = [];
  length = 0;

  add(bytes: Uint8Array, target: number): number {
    const offset = this.length;
    this.pieces.push({ offset, bytes });
    this.views.push({ buffer: 0, byteOffset: offset, byteLength: bytes.byteLength, target });
    this.length = align4(offset + bytes.byteLength);
    return this.views.length - 1;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    for (const piece of this.pieces) out.set(piece.bytes, piece.offset);
    return out;
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function asBytes(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Positions times `scale`, as float32, with their per-axis min and max. */
function scaledPositions(src: Float32Array, scale: number): { data: Float32Array; min: number[]; max: number[] } {
  const data = new Float32Array(src.length);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < src.length; i++) {
    const v = scale === 1 ? src[i] : Math.fround(src[i] * scale);
    if (!Number.isFinite(v)) throw new Error(`position ${Math.floor(i / 3)} is not a finite number`);
    data[i] = v;
    const axis = i % 3;
    if (v < min[axis]) min[axis] = v;
    if (v > max[axis]) max[axis] = v;
  }
  return { data, min, max };
}

/** Unit-length copies of `src` (glTF requires unit normals); a zero or broken normal becomes +Z. */
export function unitNormals(src: Float32Array): Float32Array {
  const out = new Float32Array(src.length);
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

/** Writes `scene` as GLB bytes. Primitives without triangles and parts without primitives are left out. */
export function writeGlb(scene: MeshScene, options: GlbOptions): Uint8Array {
  const scale = options.scale ?? 1;
  const bin = new BinaryBuilder();
  const accessors: object[] = [];
  const materials: object[] = [];
  const materialIndex = new Map<string, number>();
  const meshes: object[] = [];
  const positionAccessors = new Map<Float32Array, number>();
  const normalAccessors = new Map<Float32Array, number>();

  const material = (color: Rgba): number => {
    const key = materialKey(color);
    let index = materialIndex.get(key);
    if (index === undefined) {
      const a = clamp01(color.a);
      materials.push({
        name: a < 1 ? `${hexColor(color)} ${Math.round(a * 100)}%` : hexColor(color),
        pbrMetallicRoughness: { baseColorFactor: [clamp01(color.r), clamp01(color.g), clamp01(color.b), a], metallicFactor: 0, roughnessFactor: 0.6 },
        ...(a < 1 ? { alphaMode: "BLEND" } : {}),
        ...(options.doubleSided ? { doubleSided: true } : {}),
      });
      index = materials.length - 1;
      materialIndex.set(key, index);
    }
    return index;
  };

  const positionAccessor = (positions: Float32Array): number => {
    let index = positionAccessors.get(positions);
    if (index === undefined) {
      const { data, min, max } = scaledPositions(positions, scale);
      const view = bin.add(asBytes(data), ARRAY_BUFFER);
      accessors.push({ bufferView: view, componentType: FLOAT, count: data.length / 3, type: "VEC3", min, max });
      index = accessors.length - 1;
      positionAccessors.set(positions, index);
    }
    return index;
  };

  const normalAccessor = (normals: Float32Array): number => {
    let index = normalAccessors.get(normals);
    if (index === undefined) {
      const data = unitNormals(normals);
      const view = bin.add(asBytes(data), ARRAY_BUFFER);
      accessors.push({ bufferView: view, componentType: FLOAT, count: data.length / 3, type: "VEC3" });
      index = accessors.length - 1;
      normalAccessors.set(normals, index);
    }
    return index;
  };

  const indexAccessor = (indices: Uint32Array, vertexCount: number): number => {
    const count = indices.length - (indices.length % 3);
    for (let i = 0; i < count; i++) {
      if (indices[i] >= vertexCount) throw new Error(`index ${indices[i]} points past the ${vertexCount} vertices`);
    }
    // glTF forbids the type's maximum value as an index, so 16 bits serve up to 65535 vertices.
    const small = vertexCount <= 65535;
    const data = small ? Uint16Array.from(indices.subarray(0, count)) : indices.slice(0, count);
    const view = bin.add(asBytes(data), ELEMENT_ARRAY_BUFFER);
    accessors.push({ bufferView: view, componentType: small ? UNSIGNED_SHORT : UNSIGNED_INT, count, type: "SCALAR" });
    return accessors.length - 1;
  };

  const primitive = (p: Primitive): object | undefined => {
    const vertexCount = Math.floor(p.positions.length / 3);
    if (p.indices.length < 3 || vertexCount === 0) return undefined;
    const attributes: Record<string, number> = { POSITION: positionAccessor(p.positions) };
    if (p.normals && p.normals.length === p.positions.length) attributes.NORMAL = normalAccessor(p.normals);
    return { attributes, indices: indexAccessor(p.indices, vertexCount), material: material(p.color) };
  };

  const meshOfPart: (number | undefined)[] = scene.parts.map((part: MeshPart) => {
    const primitives = part.primitives.map(primitive).filter((p): p is object => p !== undefined);
    if (primitives.length === 0) return undefined;
    meshes.push({ name: part.name, primitives, ...(part.extras ? { extras: part.extras } : {}) });
    return meshes.length - 1;
  });

  const nodes: GltfNode[] = [];
  const addNode = (node: SceneNode): number | undefined => {
    const mesh = node.part === undefined ? undefined : meshOfPart[node.part];
    const children = (node.children ?? []).map(addNode).filter((n): n is number => n !== undefined);
    if (mesh === undefined && children.length === 0) return undefined; // nothing to show below it
    nodes.push({ name: node.name, ...(mesh !== undefined ? { mesh } : {}), ...(children.length ? { children } : {}), ...(node.extras ? { extras: node.extras } : {}) });
    return nodes.length - 1;
  };
  const roots = scene.roots ?? scene.parts.map((part, i): SceneNode => ({ name: part.name, part: i }));
  const rootNodes = roots.map(addNode).filter((n): n is number => n !== undefined);
  if (meshes.length === 0 || rootNodes.length === 0) throw new Error("the scene has no triangles to write");

  const binary = bin.bytes();
  const gltf = {
    asset: { version: "2.0", generator: options.generator },
    scene: 0,
    scenes: [{ nodes: rootNodes }],
    nodes,
    meshes,
    materials,
    accessors,
    bufferViews: bin.views,
    buffers: [{ byteLength: binary.byteLength }],
  };
  return packGlb(new TextEncoder().encode(JSON.stringify(gltf)), binary);
}

/** The GLB container: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros. */
function packGlb(json: Uint8Array, binary: Uint8Array): Uint8Array {
  const jsonLength = align4(json.byteLength);
  const binLength = align4(binary.byteLength);
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(json, 20);
  out.fill(0x20, 20 + json.byteLength, 20 + jsonLength);
  const binAt = 20 + jsonLength;
  view.setUint32(binAt, binLength, true);
  view.setUint32(binAt + 4, CHUNK_BIN, true);
  out.set(binary, binAt + 8);
  return out;
}
