/**
 * Reading a CAD file the same way in every CAD tool: a look at the bytes first (which format,
 * does it end, is it IFC rather than CAD), then occt-import-js's reader and mesher, with its
 * failures mapped to the job error codes and its arrays turned into named parts.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import type { OcctMesh, OcctNode, OcctResult } from "occt-import-js";
import { rgba } from "../../common/mesh/color";
import type { Rgba, SceneNode } from "../../common/mesh/types";
import { errorMessage } from "../../runtime/context";
import { discardOcct, loadOcct, takeOcctMessages } from "../init";

/** The formats occt-import-js reads. */
export type CadFormat = "step" | "iges" | "brep";

/** Triangulation settings (occt-import-js's `bounding_box_ratio` deflection). */
export interface MeshQuality {
  /** Largest distance between mesh and surface, as a fraction of the model's bounding box size. */
  linearDeflection: number;
  /** Largest angle between neighbouring facets, in radians. */
  angularDeflection: number;
}

/** One B-rep face's triangles (inclusive range) and its own colour, if any. */
export interface CadFace {
  first: number;
  last: number;
  color: Rgba | null;
}

/** A solid as triangles, in millimetres (STEP, IGES) or the file's own units (BREP). */
export interface CadPart {
  name: string;
  /** Names of the assembly nodes above it, outermost first. */
  path: string[];
  positions: Float32Array;
  normals?: Float32Array;
  indices: Uint32Array;
  color: Rgba | null;
  faces: CadFace[];
  /** Exact (double precision) bounds of the vertices. */
  min: [number, number, number];
  max: [number, number, number];
}

/** A read file: its parts (only those with triangles) and the assembly tree over them. */
export interface CadModel {
  format: CadFormat;
  parts: CadPart[];
  roots: SceneNode[];
}

const latin1 = new TextDecoder("latin1");
const HEAD = 64 * 1024;
const TAIL = 4096;

/** The first bytes as text, without a byte order mark (IGES lines may start with spaces, so no trimming here). */
function head(bytes: Uint8Array): string {
  return latin1.decode(bytes.subarray(0, HEAD)).replace(/^\xEF\xBB\xBF/, "");
}

function tail(bytes: Uint8Array): string {
  return latin1.decode(bytes.subarray(Math.max(0, bytes.length - TAIL)));
}

/** The IGES section letter (column 73) of a line, if the line is long enough to have one. */
function igesSection(line: string): string | undefined {
  return line.length >= 73 ? line[72] : undefined;
}

/**
 * Which CAD format `input` is, from its content. Throws INPUT_INVALID for anything else (and for
 * a file cut short), INPUT_UNSUPPORTED for IFC and for binary or compressed IGES.
 */
export function detectCadFormat(input: ToolInput): CadFormat {
  const raw = head(input.bytes);
  const text = raw.trimStart();
  const name = input.name;
  if (text.startsWith("ISO-10303-21")) {
    const schema = /FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'/i.exec(text)?.[1]?.trim() ?? "";
    if (/^IFC/i.test(schema)) {
      throw new ToolError("INPUT_UNSUPPORTED", `"${name}" is an IFC building model (schema ${schema}), not CAD geometry; use the BIM tools (bim.ifc-to-glb) for it`);
    }
    if (!/END-ISO-10303-21\s*;/.test(tail(input.bytes))) {
      throw new ToolError("INPUT_INVALID", `"${name}" looks truncated: the STEP end marker (END-ISO-10303-21;) is missing`);
    }
    return "step";
  }
  if (text.startsWith("DBRep_DrawableShape") || text.startsWith("CASCADE Topology V")) return "brep";
  const first = raw.split(/\r?\n/).find((line) => line.trim() !== "") ?? "";
  const section = igesSection(first);
  if (section === "S" || section === "G") {
    const last = tail(input.bytes).trimEnd().split(/\r?\n/).pop() ?? "";
    if (igesSection(last) !== "T") {
      throw new ToolError("INPUT_INVALID", `"${name}" looks truncated: the IGES terminate section (T in column 73) is missing`);
    }
    return "iges";
  }
  if (section === "B" || section === "C") {
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" is a binary or compressed IGES file; only the ASCII IGES form can be read`);
  }
  throw new ToolError("INPUT_INVALID", `"${name}" is not a STEP, IGES or BREP file (no ISO-10303-21 header, IGES section columns or OpenCascade BREP header)`);
}

/** Names of external part files a STEP assembly points to (DOCUMENT_FILE entities). */
function externalDocuments(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/DOCUMENT_FILE\s*\(\s*'([^']*)'/gi)) if (m[1]) names.add(m[1]);
  return [...names];
}

/** Why a file that looked right gave no geometry: an empty DATA section, external parts, or nothing readable. */
function explainNothing(input: ToolInput, format: CadFormat, readOk: boolean): ToolError {
  const name = input.name;
  if (format === "step") {
    const text = latin1.decode(input.bytes);
    const data = /\bDATA\s*;([\s\S]*?)\bENDSEC\s*;/i.exec(text);
    if (data && !/#\d+\s*=/.test(data[1])) {
      return new ToolError("INPUT_EMPTY", `"${name}" has no solids: its DATA section is empty`);
    }
    const external = externalDocuments(text);
    if (readOk && external.length) {
      const listed = external.slice(0, 8).join(", ") + (external.length > 8 ? ", ..." : "");
      return new ToolError("INPUT_EMPTY", `"${name}" has no solids of its own: it is an assembly whose parts are in external files (${listed}); convert those files instead`);
    }
  }
  if (readOk) return new ToolError("INPUT_EMPTY", `"${name}" has no solids (no surfaces that could be meshed)`);
  const label = format === "step" ? "STEP" : format === "iges" ? "IGES" : "BREP";
  return new ToolError("INPUT_INVALID", `"${name}" could not be read as ${label}: the file is damaged or not valid ${label}`);
}

function toColor(rgb: readonly number[] | null | undefined): Rgba | null {
  return rgb && rgb.length >= 3 ? rgba(rgb) : null;
}

/** Copies occt's arrays into typed arrays and measures the exact bounds. */
function toPart(mesh: OcctMesh, name: string, path: string[]): CadPart {
  const source = mesh.attributes.position.array;
  const positions = new Float32Array(source.length);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < source.length; i++) {
    const v = source[i];
    positions[i] = v;
    const axis = i % 3;
    if (v < min[axis]) min[axis] = v;
    if (v > max[axis]) max[axis] = v;
  }
  const normalSource = mesh.attributes.normal?.array;
  const normals = normalSource && normalSource.length === source.length ? Float32Array.from(normalSource) : undefined;
  const indices = Uint32Array.from(mesh.index.array);
  const faces = (mesh.brep_faces ?? []).map((f) => ({ first: f.first, last: f.last, color: toColor(f.color) }));
  return { name, path, positions, normals, indices, color: toColor(mesh.color), faces, min, max };
}

/** Builds the parts (named after the mesh, else its node, else their number) and the node tree over them. */
function toModel(format: CadFormat, result: OcctResult): CadModel {
  const meshes = result.meshes ?? [];
  const owner = new Map<number, { node: OcctNode; path: string[] }>();
  const visit = (node: OcctNode, path: string[]) => {
    for (const m of node.meshes) if (!owner.has(m)) owner.set(m, { node, path });
    const below = node.name ? [...path, node.name] : path;
    for (const child of node.children) visit(child, below);
  };
  if (result.root) visit(result.root, []);

  const partOfMesh = new Map<number, number>();
  const parts: CadPart[] = [];
  meshes.forEach((mesh, i) => {
    if (mesh.index.array.length < 3 || mesh.attributes.position.array.length < 9) return;
    const own = owner.get(i);
    const name = mesh.name?.trim() || own?.node.name.trim() || `Part ${parts.length + 1}`;
    // The node holding the mesh is part of the path unless it is just the part's own name again.
    const path = own ? (own.node.name && own.node.name !== name ? [...own.path, own.node.name] : own.path) : [];
    partOfMesh.set(i, parts.length);
    parts.push(toPart(mesh, name, path));
  });

  const build = (node: OcctNode): SceneNode[] => {
    const shown = node.meshes.map((m) => partOfMesh.get(m)).filter((p): p is number => p !== undefined);
    const children = node.children.flatMap(build);
    if (!node.name) return [...shown.map((p) => ({ name: parts[p].name, part: p })), ...children];
    if (shown.length === 1 && children.length === 0) return [{ name: node.name, part: shown[0] }];
    return [{ name: node.name, children: [...shown.map((p) => ({ name: parts[p].name, part: p })), ...children] }];
  };
  const roots = result.root ? build(result.root) : parts.map((p, i) => ({ name: p.name, part: i }));
  // Meshes no node points to still belong in the scene.
  const placed = new Set<number>();
  const mark = (n: SceneNode) => {
    if (n.part !== undefined) placed.add(n.part);
    n.children?.forEach(mark);
  };
  roots.forEach(mark);
  parts.forEach((p, i) => {
    if (!placed.has(i)) roots.push({ name: p.name, part: i });
  });
  return { format, parts, roots };
}

/**
 * Reads and meshes `input`. Throws INPUT_INVALID for files occt cannot read, INPUT_EMPTY for
 * files without solids (an empty DATA section, an assembly of external part files).
 */
export async function readCad(input: ToolInput, quality: MeshQuality): Promise<CadModel> {
  const format = detectCadFormat(input);
  const occt = await loadOcct();
  let result: OcctResult;
  try {
    result = occt.ReadFile(format, input.bytes, {
      linearUnit: "millimeter",
      linearDeflectionType: "bounding_box_ratio",
      linearDeflection: quality.linearDeflection,
      angularDeflection: quality.angularDeflection,
    });
  } catch (err) {
    // An abort inside the module leaves its heap unusable: the next run gets a fresh instance.
    discardOcct();
    const message = errorMessage(err);
    if (/memory|alloc/i.test(message)) throw new ToolError("INPUT_TOO_LARGE", `"${input.name}" needs more memory than the CAD engine has: ${message}`);
    throw new ToolError("INPUT_INVALID", `"${input.name}" could not be read: the CAD reader failed (${message})`);
  } finally {
    takeOcctMessages();
  }
  if (!result.success) throw explainNothing(input, format, false);
  const model = toModel(format, result);
  if (model.parts.length === 0) throw explainNothing(input, format, true);
  return model;
}
