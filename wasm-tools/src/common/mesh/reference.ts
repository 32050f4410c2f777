/**
 * Test-only checkers for mesh outputs, sharing no code with the writers: the Khronos glTF
 * validator, and minimal GLB, binary STL and OBJ readers written straight from the formats'
 * specifications. Imported by tests only (it pulls in the validator, a dev dependency).
 */
import { validateBytes, type ValidationReport } from "gltf-validator";

/** The validator's report for GLB bytes, with the errors and warnings listed for a readable failure. */
export async function validateGlb(bytes: Uint8Array): Promise<{ report: ValidationReport; errors: string[]; warnings: string[] }> {
  const report = await validateBytes(bytes, { format: "glb", maxIssues: 0, writeTimestamp: false });
  const describe = (severity: number) => report.issues.messages.filter((m) => m.severity === severity).map((m) => `${m.code} ${m.pointer ?? ""}: ${m.message}`);
  return { report, errors: describe(0), warnings: describe(1) };
}

/** The parts of a GLB file a test looks at. */
export interface RefGlb {
  json: {
    asset: { version: string; generator?: string };
    scene?: number;
    scenes: { nodes: number[] }[];
    nodes: { name?: string; mesh?: number; children?: number[]; extras?: Record<string, unknown> }[];
    meshes: { name?: string; primitives: { attributes: Record<string, number>; indices?: number; material?: number }[]; extras?: Record<string, unknown> }[];
    materials: { name?: string; pbrMetallicRoughness?: { baseColorFactor?: number[] }; alphaMode?: string }[];
    accessors: { bufferView?: number; byteOffset?: number; componentType: number; count: number; type: string; min?: number[]; max?: number[] }[];
    bufferViews: { buffer: number; byteOffset?: number; byteLength: number; byteStride?: number }[];
    buffers: { byteLength: number }[];
  };
  bin: Uint8Array;
  /** Accessor `i`'s components, flattened. */
  read(i: number): number[];
  /** Triangles drawn by all primitives of mesh `m`. */
  meshTriangles(m: number): number;
  /** Triangles in the file. */
  triangles(): number;
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

/** Parses GLB container bytes (throws on a broken header or chunk layout). */
export function refReadGlb(bytes: Uint8Array): RefGlb {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x46546c67) throw new Error("no glTF magic");
  if (view.getUint32(4, true) !== 2) throw new Error("not GLB version 2");
  if (view.getUint32(8, true) !== bytes.byteLength) throw new Error("header length differs from the file size");
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a) throw new Error("first chunk is not JSON");
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as RefGlb["json"];
  const binAt = 20 + jsonLength;
  const binLength = view.getUint32(binAt, true);
  if (view.getUint32(binAt + 4, true) !== 0x004e4942) throw new Error("second chunk is not BIN");
  const bin = bytes.subarray(binAt + 8, binAt + 8 + binLength);
  const binView = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const read = (i: number): number[] => {
    const a = json.accessors[i];
    const bv = json.bufferViews[a.bufferView ?? -1];
    const start = (bv.byteOffset ?? 0) + (a.byteOffset ?? 0);
    const n = a.count * COMPONENTS[a.type];
    const out: number[] = [];
    for (let k = 0; k < n; k++) {
      if (a.componentType === 5126) out.push(binView.getFloat32(start + 4 * k, true));
      else if (a.componentType === 5125) out.push(binView.getUint32(start + 4 * k, true));
      else if (a.componentType === 5123) out.push(binView.getUint16(start + 2 * k, true));
      else if (a.componentType === 5121) out.push(bin[start + k]);
      else throw new Error(`component type ${a.componentType}`);
    }
    return out;
  };
  const meshTriangles = (m: number) => json.meshes[m].primitives.reduce((sum, p) => sum + (p.indices === undefined ? json.accessors[p.attributes.POSITION].count : json.accessors[p.indices].count) / 3, 0);
  return { json, bin, read, meshTriangles, triangles: () => json.meshes.reduce((sum, _, m) => sum + meshTriangles(m), 0) };
}

/** Triangles whose corner normals point against the face normal given by their winding. */
export function windingDisagreements(glb: RefGlb): number {
  let count = 0;
  for (const mesh of glb.json.meshes) {
    for (const p of mesh.primitives) {
      const pos = glb.read(p.attributes.POSITION);
      const nor = glb.read(p.attributes.NORMAL);
      const idx = glb.read(p.indices ?? -1);
      for (let t = 0; t < idx.length; t += 3) {
        const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]];
        const u = [0, 1, 2].map((k) => pos[3 * b + k] - pos[3 * a + k]);
        const w = [0, 1, 2].map((k) => pos[3 * c + k] - pos[3 * a + k]);
        const face = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
        const corner = [0, 1, 2].map((k) => nor[3 * a + k] + nor[3 * b + k] + nor[3 * c + k]);
        if (face[0] * corner[0] + face[1] * corner[1] + face[2] * corner[2] < 0) count++;
      }
    }
  }
  return count;
}

/** A binary STL's header text, declared triangle count and corners. */
export interface RefStl {
  header: string;
  count: number;
  /** Corner `k` (0..2) of triangle `t` as x, y, z. */
  corner(t: number, k: number): [number, number, number];
  /** Stored facet normal of triangle `t`. */
  normal(t: number): [number, number, number];
}

/** Parses binary STL bytes; throws when the size is not 84 + 50 x count. */
export function refReadStl(bytes: Uint8Array): RefStl {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(80, true);
  if (bytes.byteLength !== 84 + 50 * count) throw new Error(`size ${bytes.byteLength} does not match ${count} triangles`);
  const vec = (at: number): [number, number, number] => [view.getFloat32(at, true), view.getFloat32(at + 4, true), view.getFloat32(at + 8, true)];
  return {
    header: new TextDecoder("latin1").decode(bytes.subarray(0, 80)),
    count,
    corner: (t, k) => vec(84 + 50 * t + 12 + 12 * k),
    normal: (t) => vec(84 + 50 * t),
  };
}

/** Counts and contents of an OBJ file. */
export interface RefObj {
  objects: string[];
  vertices: [number, number, number][];
  normals: number;
  faces: number[][];
}

/** Parses OBJ text; throws on a face that points at a vertex that does not exist. */
export function refReadObj(text: string): RefObj {
  const out: RefObj = { objects: [], vertices: [], normals: 0, faces: [] };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [kind, ...rest] = line.split(/\s+/);
    if (kind === "o") out.objects.push(line.slice(2));
    else if (kind === "v") out.vertices.push(rest.slice(0, 3).map(Number) as [number, number, number]);
    else if (kind === "vn") out.normals++;
    else if (kind === "f") {
      const face = rest.map((corner) => Number(corner.split("/")[0]));
      for (const v of face) if (!(v >= 1 && v <= out.vertices.length)) throw new Error(`face corner ${v} out of range`);
      out.faces.push(face);
    } else throw new Error(`unexpected OBJ line: ${line}`);
  }
  return out;
}
