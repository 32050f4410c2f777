/**
 * The mesh writers by target format: GLB, binary STL and OBJ from the CAD family's writers
 * (common/mesh), and here ASCII STL, binary PLY, glTF with its buffer embedded, and 3MF.
 */
import { zipSync } from "fflate";
import { writeGlb } from "../../common/mesh/glb";
import { formatNumber, writeObj } from "../../common/mesh/obj";
import { writeStl } from "../../common/mesh/stl";
import type { MeshScene, Primitive } from "../../common/mesh/types";

export type TargetFormat = "stl" | "obj" | "ply" | "glb" | "gltf" | "3mf";

const encode = (text: string) => new TextEncoder().encode(text);

function* triangles(scene: MeshScene): Generator<[Primitive, number, number, number]> {
  for (const part of scene.parts) for (const p of part.primitives) for (let t = 0; t + 2 < p.indices.length; t += 3) yield [p, p.indices[t], p.indices[t + 1], p.indices[t + 2]];
}

function asciiStl(scene: MeshScene, name: string): Uint8Array {
  const lines = [`solid ${name}`];
  const v = (p: Primitive, i: number) => `      vertex ${formatNumber(p.positions[i * 3])} ${formatNumber(p.positions[i * 3 + 1])} ${formatNumber(p.positions[i * 3 + 2])}`;
  for (const [p, a, b, c] of triangles(scene)) {
    const [ax, ay, az] = [p.positions[a * 3], p.positions[a * 3 + 1], p.positions[a * 3 + 2]];
    const u = [p.positions[b * 3] - ax, p.positions[b * 3 + 1] - ay, p.positions[b * 3 + 2] - az];
    const w = [p.positions[c * 3] - ax, p.positions[c * 3 + 1] - ay, p.positions[c * 3 + 2] - az];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const len = Math.hypot(n[0], n[1], n[2]) || 1;
    lines.push(`  facet normal ${n.map((x) => formatNumber(x / len)).join(" ")}`, "    outer loop", v(p, a), v(p, b), v(p, c), "    endloop", "  endfacet");
  }
  lines.push(`endsolid ${name}`, "");
  return encode(lines.join("\n"));
}

/** Binary little-endian PLY: float x y z per vertex, a uchar-counted int list per face; parts share one vertex list. */
function ply(scene: MeshScene, comment: string): Uint8Array {
  const prims = scene.parts.flatMap((part) => part.primitives);
  const vertexCount = prims.reduce((n, p) => n + p.positions.length / 3, 0);
  const faceCount = prims.reduce((n, p) => n + Math.floor(p.indices.length / 3), 0);
  const header = encode(`ply\nformat binary_little_endian 1.0\ncomment ${comment.replace(/[\r\n]+/g, " ")}\nelement vertex ${vertexCount}\nproperty float x\nproperty float y\nproperty float z\nelement face ${faceCount}\nproperty list uchar int vertex_indices\nend_header\n`);
  const out = new Uint8Array(header.length + vertexCount * 12 + faceCount * 13);
  out.set(header);
  const view = new DataView(out.buffer);
  let at = header.length;
  for (const p of prims) for (const x of p.positions) (view.setFloat32(at, x, true), (at += 4));
  let base = 0;
  for (const p of prims) {
    for (let t = 0; t + 2 < p.indices.length; t += 3) {
      view.setUint8(at, 3);
      for (let k = 0; k < 3; k++) view.setInt32(at + 1 + k * 4, base + p.indices[t + k], true);
      at += 13;
    }
    base += p.positions.length / 3;
  }
  return out;
}

/** glTF JSON: the GLB's JSON chunk with its BIN chunk as a base64 data URI. */
function gltf(glb: Uint8Array): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binStart = 20 + jsonLength;
  if (binStart + 8 <= glb.length) {
    const binLength = view.getUint32(binStart, true);
    const bin = glb.subarray(binStart + 8, binStart + 8 + binLength);
    let binary = "";
    for (let i = 0; i < bin.length; i += 0x8000) binary += String.fromCharCode(...bin.subarray(i, i + 0x8000));
    json.buffers = [{ byteLength: json.buffers?.[0]?.byteLength ?? binLength, uri: `data:application/octet-stream;base64,${btoa(binary)}` }];
  }
  return encode(JSON.stringify(json));
}

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** 3MF: one object per part in 3D/3dmodel.model, in millimetres. Fixed timestamps keep the ZIP deterministic. */
function threeMf(scene: MeshScene): Uint8Array {
  const objects: string[] = [];
  const items: string[] = [];
  scene.parts.forEach((part, i) => {
    const vertices: string[] = [];
    const tris: string[] = [];
    let base = 0;
    for (const p of part.primitives) {
      for (let v = 0; v < p.positions.length; v += 3) vertices.push(`<vertex x="${formatNumber(p.positions[v])}" y="${formatNumber(p.positions[v + 1])}" z="${formatNumber(p.positions[v + 2])}"/>`);
      for (let t = 0; t + 2 < p.indices.length; t += 3) tris.push(`<triangle v1="${base + p.indices[t]}" v2="${base + p.indices[t + 1]}" v3="${base + p.indices[t + 2]}"/>`);
      base += p.positions.length / 3;
    }
    objects.push(`<object id="${i + 1}" name="${escapeXml(part.name)}" type="model"><mesh><vertices>${vertices.join("")}</vertices><triangles>${tris.join("")}</triangles></mesh></object>`);
    items.push(`<item objectid="${i + 1}"/>`);
  });
  const model = `<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources>${objects.join("")}</resources><build>${items.join("")}</build></model>\n`;
  const types = `<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>\n`;
  const rels = `<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n`;
  const mtime = new Date(Date.UTC(2000, 0, 1));
  return zipSync({ "[Content_Types].xml": [encode(types), { mtime }], "_rels/.rels": [encode(rels), { mtime }], "3D/3dmodel.model": [encode(model), { mtime }] });
}

export interface WriteOptions {
  name: string;
  generator: string;
  stlAscii: boolean;
}

export function writeMesh(scene: MeshScene, to: TargetFormat, options: WriteOptions): Uint8Array {
  switch (to) {
    case "stl":
      return options.stlAscii ? asciiStl(scene, options.name.replace(/\s+/g, "_")) : writeStl(scene, { header: options.generator });
    case "obj":
      return writeObj(scene, { comment: options.generator });
    case "ply":
      return ply(scene, options.generator);
    case "glb":
      return writeGlb(scene, { generator: options.generator });
    case "gltf":
      return gltf(writeGlb(scene, { generator: options.generator }));
    case "3mf":
      return threeMf(scene);
  }
}
