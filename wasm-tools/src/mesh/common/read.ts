/**
 * A mesh file, told by its content, read into the triangle model the writers share
 * (common/mesh/types): three.js's loaders for STL, OBJ, PLY and glTF/GLB (node transforms
 * applied), and a small reader for 3MF's XML model parts (fflate unzips them). What a loader
 * cannot say (a binary STL whose triangle count does not match its size) is checked first.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import { unzipSync } from "fflate";
import type { BufferGeometry, Mesh, Object3D } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { OBJLoader } from "three/examples/jsm/loaders/OBJLoader.js";
import { PLYLoader } from "three/examples/jsm/loaders/PLYLoader.js";
import { STLLoader } from "three/examples/jsm/loaders/STLLoader.js";
import { DEFAULT_COLOR, type MeshPart, type MeshScene } from "../../common/mesh/types";
import { errorMessage } from "../../runtime/context";

export type MeshFormat = "stl" | "obj" | "ply" | "glb" | "gltf" | "3mf";

export interface ReadMesh {
  format: MeshFormat;
  scene: MeshScene;
  /** The length unit the file states (3MF's model unit, glTF's metre), or null. */
  unit: string | null;
}

const latin1 = new TextDecoder("latin1");

/** What the bytes are, or null. */
export function meshFormat(bytes: Uint8Array): MeshFormat | null {
  const head = latin1.decode(bytes.subarray(0, 1024));
  if (head.startsWith("glTF")) return "glb";
  if (head.startsWith("PK\x03\x04")) return "3mf";
  if (/^ply\r?\n/.test(head)) return "ply";
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("{") && /"asset"/.test(latin1.decode(bytes.subarray(0, 65536)))) return "gltf";
  if (bytes.length >= 84) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    if (84 + 50 * count === bytes.length) return "stl";
  }
  if (/^solid\b/.test(text) && !bytes.subarray(0, 1024).includes(0)) return "stl";
  if (/^(v|f|o|g|vn|vt|mtllib|usemtl|#)[ \t]/m.test(text) && !bytes.subarray(0, 1024).includes(0)) return "obj";
  // A binary STL whose count lies: an 80-byte header, then a count that does not fit the size.
  if (bytes.length >= 84 && !/^solid\b/.test(text)) return "stl";
  return null;
}

/** The bytes as their own ArrayBuffer (loaders take whole buffers). */
function buffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer as ArrayBuffer;
}

function checkBinaryStl(bytes: Uint8Array): void {
  if (/^solid\b/.test(latin1.decode(bytes.subarray(0, 6)))) return;
  const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  const expected = 84 + 50 * count;
  if (expected !== bytes.length) {
    throw new ToolError("INPUT_INVALID", `The binary STL says it holds ${count.toLocaleString("en")} triangles (${expected.toLocaleString("en")} bytes) but the file has ${bytes.length.toLocaleString("en")} bytes: it is truncated or its count is wrong`);
  }
}

/** One geometry as one primitive, every position through `matrix` (column-major 4x4) when given. */
function part(name: string, geometry: BufferGeometry, matrix?: number[]): MeshPart | null {
  const position = geometry.getAttribute("position");
  if (!position || position.count === 0) return null;
  const positions = new Float32Array(position.count * 3);
  const m = matrix;
  for (let i = 0; i < position.count; i++) {
    const [x, y, z] = [position.getX(i), position.getY(i), position.getZ(i)];
    positions[i * 3] = m ? m[0] * x + m[4] * y + m[8] * z + m[12] : x;
    positions[i * 3 + 1] = m ? m[1] * x + m[5] * y + m[9] * z + m[13] : y;
    positions[i * 3 + 2] = m ? m[2] * x + m[6] * y + m[10] * z + m[14] : z;
  }
  const index = geometry.index;
  const indices = index ? Uint32Array.from(index.array as ArrayLike<number>) : Uint32Array.from({ length: position.count - (position.count % 3) }, (_, i) => i);
  if (indices.length < 3) return null;
  return { name, primitives: [{ positions, indices, color: DEFAULT_COLOR }] };
}

function partsOf(root: Object3D): MeshPart[] {
  root.updateMatrixWorld(true);
  const parts: MeshPart[] = [];
  root.traverse((o) => {
    if (!(o as Mesh).isMesh) return;
    const p = part(o.name || `mesh ${parts.length + 1}`, (o as Mesh).geometry, o.matrixWorld.elements);
    if (p) parts.push(p);
  });
  return parts;
}

type GltfJson = { buffers?: { uri?: string; byteLength: number }[]; bufferViews?: { buffer: number; byteOffset?: number }[]; materials?: Record<string, unknown>[]; [key: string]: unknown };

function base64Bytes(data: string): Uint8Array {
  const binary = atob(data);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A GLB's JSON and BIN chunks. */
function glbChunks(bytes: Uint8Array): { json: GltfJson; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as GltfJson;
  const binAt = 20 + jsonLength;
  const bin = binAt + 8 <= bytes.length ? bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true)) : new Uint8Array(0);
  return { json, bin };
}

/** A glTF JSON's data-URI buffers joined into one BIN chunk (external files are refused). */
function embeddedBuffers(json: GltfJson): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const buffer of json.buffers ?? []) {
    if (!buffer.uri?.startsWith("data:")) throw new ToolError("INPUT_UNSUPPORTED", `The glTF keeps its geometry in a separate file (${buffer.uri ?? "the GLB's own chunk"}); upload a GLB or a glTF with embedded buffers`);
    const data = base64Bytes(buffer.uri.slice(buffer.uri.indexOf(",") + 1));
    offsets.push(size);
    parts.push(data);
    size += Math.ceil(data.length / 4) * 4;
  }
  const bin = new Uint8Array(size);
  parts.forEach((part, i) => bin.set(part, offsets[i]));
  for (const view of json.bufferViews ?? []) {
    view.byteOffset = (view.byteOffset ?? 0) + (offsets[view.buffer] ?? 0);
    view.buffer = 0;
  }
  json.buffers = size ? [{ byteLength: size }] : [];
  return bin;
}

/**
 * Geometry only: images, textures and samplers are dropped (three.js would load them through
 * the DOM or fetch, which a worker on the server has not, and the writers keep no textures).
 */
function geometryOnly(json: GltfJson): void {
  for (const key of ["images", "textures", "samplers"]) delete json[key];
  for (const material of json.materials ?? []) {
    for (const key of Object.keys(material)) if (/Texture$/.test(key)) delete material[key];
    const pbr = material.pbrMetallicRoughness as Record<string, unknown> | undefined;
    if (pbr) for (const key of Object.keys(pbr)) if (/Texture$/.test(key)) delete pbr[key];
  }
}

function glb(json: GltfJson, bin: Uint8Array): ArrayBuffer {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const binLength = Math.ceil(bin.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLength + (bin.length ? 8 + binLength : 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  if (bin.length) {
    view.setUint32(20 + jsonLength, binLength, true);
    view.setUint32(24 + jsonLength, 0x004e4942, true);
    out.set(bin, 28 + jsonLength);
  }
  return out.buffer;
}

async function readGltf(bytes: Uint8Array, format: "glb" | "gltf"): Promise<MeshPart[]> {
  let json: GltfJson;
  let bin: Uint8Array;
  if (format === "glb") ({ json, bin } = glbChunks(bytes));
  else {
    json = JSON.parse(new TextDecoder().decode(bytes)) as GltfJson;
    bin = embeddedBuffers(json);
  }
  geometryOnly(json);
  const gltf = await new GLTFLoader().parseAsync(glb(json, bin), "");
  return partsOf(gltf.scene);
}

/** 3MF: every <object>'s <mesh>, placed by the build items' transforms. */
function read3mf(bytes: Uint8Array): { parts: MeshPart[]; unit: string } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => /^3D\/[^/]+\.model$/i.test(f.name) });
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `The 3MF package could not be unzipped: ${errorMessage(err)}`);
  }
  const models = Object.values(files).map((f) => new TextDecoder().decode(f));
  if (!models.length) throw new ToolError("INPUT_INVALID", "The ZIP holds no 3D/*.model part: it is not a 3MF package");
  const unit = /<model[^>]*\bunit="([^"]+)"/.exec(models[0])?.[1] ?? "millimeter";
  const parts: MeshPart[] = [];
  for (const xml of models) {
    const transforms = new Map<string, number[]>();
    for (const [, id, t] of xml.matchAll(/<item\b[^>]*\bobjectid="([^"]+)"[^>]*?(?:\btransform="([^"]+)")?[^>]*\/?>/g)) if (t) transforms.set(id, t.trim().split(/\s+/).map(Number));
    for (const [, attrs, body] of xml.matchAll(/<object\b([^>]*)>([\s\S]*?)<\/object>/g)) {
      const id = /\bid="([^"]+)"/.exec(attrs)?.[1] ?? "";
      const name = /\bname="([^"]*)"/.exec(attrs)?.[1] || `object ${id}`;
      const vertices = [...body.matchAll(/<vertex\b[^>]*\bx="([^"]+)"[^>]*\by="([^"]+)"[^>]*\bz="([^"]+)"/g)].flatMap((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
      const triangles = [...body.matchAll(/<triangle\b[^>]*\bv1="(\d+)"[^>]*\bv2="(\d+)"[^>]*\bv3="(\d+)"/g)].flatMap((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
      if (!triangles.length) continue;
      const t = transforms.get(id);
      const positions = new Float32Array(vertices.length);
      for (let i = 0; i < vertices.length; i += 3) {
        const [x, y, z] = [vertices[i], vertices[i + 1], vertices[i + 2]];
        // 3MF's 3x4 row-vector matrix: m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32.
        positions[i] = t ? x * t[0] + y * t[3] + z * t[6] + t[9] : x;
        positions[i + 1] = t ? x * t[1] + y * t[4] + z * t[7] + t[10] : y;
        positions[i + 2] = t ? x * t[2] + y * t[5] + z * t[8] + t[11] : z;
      }
      const count = vertices.length / 3;
      if (triangles.some((v) => v >= count)) throw new ToolError("INPUT_INVALID", `3MF object "${name}" has a triangle that names a vertex it does not have`);
      parts.push({ name, primitives: [{ positions, indices: Uint32Array.from(triangles), color: DEFAULT_COLOR }] });
    }
  }
  return { parts, unit };
}

export async function readMesh(input: ToolInput): Promise<ReadMesh> {
  const format = meshFormat(input.bytes);
  if (!format) throw new ToolError("INPUT_INVALID", `"${input.name}" is not a mesh this tool reads (STL, OBJ, PLY, GLB, glTF or 3MF)`);
  let parts: MeshPart[];
  let unit: string | null = null;
  try {
    switch (format) {
      case "stl":
        checkBinaryStl(input.bytes);
        parts = [part("stl", new STLLoader().parse(buffer(input.bytes)))].filter((p): p is MeshPart => p !== null);
        break;
      case "ply": {
        const geometry = new PLYLoader().parse(buffer(input.bytes));
        // Without faces PLYLoader returns the points alone: a point cloud, not a mesh.
        parts = geometry.index ? [part("ply", geometry)].filter((p): p is MeshPart => p !== null) : [];
        break;
      }
      case "obj":
        parts = partsOf(new OBJLoader().parse(new TextDecoder().decode(input.bytes)));
        break;
      case "glb":
      case "gltf":
        parts = await readGltf(input.bytes, format);
        unit = "meter";
        break;
      case "3mf":
        ({ parts, unit } = read3mf(input.bytes));
        break;
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError("INPUT_INVALID", `The ${format.toUpperCase()} file could not be read: ${errorMessage(err)}`);
  }
  if (!parts.some((p) => p.primitives.some((q) => q.indices.length >= 3))) throw new ToolError("INPUT_EMPTY", `"${input.name}" holds no triangles`);
  return { format, scene: { parts }, unit };
}
