/**
 * Opening an IFC file the same way in every BIM tool: a look at the header first (is it an
 * ISO-10303-21 file, which schema, does it end), then web-ifc, with its failures mapped to the
 * job error codes. `withModel` always closes the model, so WASM memory is given back.
 *
 * web-ifc pulls the file through a callback, a piece at a time, so the input comes from
 * wherever the host put it (io.hostFiles: a host file on the server; io.blobInputs: the
 * browser's File) and is never held whole in JavaScript beside the engine's own copy.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import type { ReadAt } from "../../runtime/blob-reads";
import { errorMessage } from "../../runtime/context";
import { paceGarbage } from "../../runtime/engine-garbage";
import { inputReader, inputTail } from "../../runtime/input-reads";
import { discardIfcApi, loadIfcApi, WebIFC, type WebIfc } from "../init";

/** web-ifc's API object. */
export type IfcApi = InstanceType<WebIfc["IfcAPI"]>;

/** An open model: the API, the model id, and the schema named in the file. */
export interface IfcModel {
  api: IfcApi;
  id: number;
  schema: string;
}

/** Loader settings for every tool (web-ifc's defaults, spelled out so a library update cannot change outputs silently). */
export interface OpenOptions {
  /** Move the model next to the origin (for georeferenced files with huge coordinates). */
  coordinateToOrigin?: boolean;
}

const latin1 = new TextDecoder("latin1");
const HEAD = 64 * 1024;
const TAIL = 4096;
/**
 * Most bytes handed to web-ifc per call of its loader (it asks for its 64 MB buffer's worth and
 * carries on from where a shorter answer ended): one small scratch buffer instead of the file.
 */
const READ_PIECE = 4 * 1024 * 1024;

/** Every schema name web-ifc reads (IFC2X3, IFC4, IFC4X3 and their aliases). */
export function supportedSchemas(): string[] {
  return WebIFC.SchemaNames.flatMap((names) => names ?? []);
}

/**
 * The schema an IFC file declares. Throws INPUT_INVALID for anything that is not an
 * ISO-10303-21 file with a FILE_SCHEMA, or that is cut short; INPUT_UNSUPPORTED for a schema
 * web-ifc does not read (another STEP application protocol, an unknown IFC version).
 */
export function checkIfcHeader(input: ToolInput, read: ReadAt = inputReader(input)): string {
  const name = input.name;
  const head = latin1.decode(input.bytes.subarray(0, HEAD)).replace(/^\xEF\xBB\xBF/, "").trimStart();
  if (!head.startsWith("ISO-10303-21")) {
    throw new ToolError("INPUT_INVALID", `"${name}" is not an IFC file: it does not start with the ISO-10303-21 (STEP) header. IFC-XML and IFC-ZIP are not read; export .ifc`);
  }
  const schema = /FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'/i.exec(head)?.[1]?.trim();
  if (!schema) throw new ToolError("INPUT_INVALID", `"${name}" has no FILE_SCHEMA in its header, so its IFC version is unknown`);
  const known = supportedSchemas();
  if (!known.includes(schema.toUpperCase())) {
    const what = /^IFC/i.test(schema) ? `IFC schema "${schema}", which this reader does not know` : `schema "${schema}": a STEP file, but not IFC (use cad.convert for CAD models)`;
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" declares ${what}. Supported: ${["IFC2X3", "IFC4", "IFC4X3"].join(", ")}`);
  }
  const tail = latin1.decode(inputTail(input, read, TAIL));
  if (!/END-ISO-10303-21\s*;/.test(tail)) {
    throw new ToolError("INPUT_INVALID", `"${name}" looks truncated: the end marker (END-ISO-10303-21;) is missing`);
  }
  return schema.toUpperCase();
}

/** web-ifc's loader callback: up to `size` bytes of the input from `offset` (none past its end), in one reused buffer. */
function loaderSource(read: ReadAt): (offset: number, size: number) => Uint8Array {
  let scratch: Uint8Array | undefined;
  return (offset, size) => {
    scratch ??= new Uint8Array(READ_PIECE);
    const into = scratch.subarray(0, Math.min(size, READ_PIECE));
    return into.subarray(0, read(into, offset));
  };
}

/** Opens `input`, runs `use` on the model, and closes it whatever happens. */
export async function withModel<T>(input: ToolInput, options: OpenOptions, use: (model: IfcModel) => T | Promise<T>): Promise<T> {
  const read = inputReader(input);
  const declared = checkIfcHeader(input, read);
  const api = await loadIfcApi();
  let id: number;
  try {
    id = api.OpenModelFromCallback(loaderSource(read), { COORDINATE_TO_ORIGIN: options.coordinateToOrigin ?? false, CIRCLE_SEGMENTS: 12 });
  } catch (err) {
    discardIfcApi();
    throw new ToolError("INPUT_INVALID", `"${input.name}" could not be read as IFC: ${errorMessage(err)}`);
  }
  if (id < 0) throw new ToolError("INPUT_INVALID", `"${input.name}" could not be read as IFC (${declared})`);
  try {
    return await use({ api, id, schema: api.GetModelSchema(id) ?? declared });
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (err instanceof WebAssembly.RuntimeError) discardIfcApi(); // an abort poisons the instance
    throw new ToolError("INPUT_INVALID", `"${input.name}" could not be processed: ${errorMessage(err)}`);
  } finally {
    try {
      api.CloseModel(id);
    } catch {
      // the instance is being discarded anyway
    }
  }
}

/** A STEP attribute's plain value: web-ifc wraps labels, numbers and enums as `{ type, value }`. */
export function plain(attribute: unknown): string | number | boolean | null {
  if (attribute === null || attribute === undefined) return null;
  if (typeof attribute === "string" || typeof attribute === "number" || typeof attribute === "boolean") return attribute;
  if (typeof attribute === "object" && "value" in attribute) return plain((attribute as { value: unknown }).value);
  return null;
}

/** A string attribute (Name, GlobalId, Description), or null. */
export function label(attribute: unknown): string | null {
  const value = plain(attribute);
  return value === null ? null : String(value);
}

/** The express ids a reference or a list of references points to. */
export function refs(attribute: unknown): number[] {
  const list = Array.isArray(attribute) ? attribute : attribute ? [attribute] : [];
  // A relation's line may hold thousands of references, each an object web-ifc made for it.
  for (let i = 0; i < list.length; i++) paceGarbage();
  return list.flatMap((r: unknown) => (r && typeof r === "object" && "value" in r && typeof (r as { value: unknown }).value === "number" ? [(r as { value: number }).value] : []));
}

/** Every express id of `type` and its subtypes. */
export function idsOf(model: IfcModel, type: number, inherited = true): number[] {
  const vector = model.api.GetLineIDsWithType(model.id, type, inherited);
  const out: number[] = [];
  try {
    for (let i = 0; i < vector.size(); i++) {
      out.push(vector.get(i));
      paceGarbage();
    }
  } finally {
    (vector as { delete?: () => void }).delete?.(); // the engine's copy, freed now rather than on collection
  }
  return out.sort((a, b) => a - b);
}

/** The entity `expressId` as web-ifc's line object (references not followed). */
export function readLine(model: IfcModel, expressId: number) {
  paceGarbage();
  return model.api.GetLine(model.id, expressId);
}
