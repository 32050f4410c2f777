/**
 * A GLB output built a part at a time. Where the host gives an output folder (the server), each
 * part's buffer views go straight to a temporary BIN file there as the part is added, and the
 * JSON text of its mesh, accessors and buffer views to three more; at the end the GLB is written
 * as header, JSON (the nodes the only text kept in memory) and those files' bytes, and the
 * temporary files removed. So memory does not grow with the scene's triangles. Elsewhere (the browser, tests passing bytes) the parts are kept and
 * written by writeGlb at the end, as before. Both give the same bytes.
 */
import { mimeOf } from "@vektor/shared/formats";
import type { RunContext, ToolOutput } from "@vektor/shared/tools/manifest";
import { output } from "../../runtime/context";
import { hostFileAccess, type HostFileAccess } from "../../runtime/host-files";
import { GlbBuilder, glbFraming, StreamedBinary, writeGlb, type GlbOptions, type TextSpill } from "./glb";
import type { MeshPart, SceneNode } from "./types";

/** How much of the temporary BIN file is copied into the GLB at a time. */
const COPY_PIECE = 4 * 1024 * 1024;

export interface GlbOutput {
  /** Adds a part; answers its number, for SceneNode.part. */
  addPart(part: MeshPart): number;
  /** Writes the GLB with the scene tree `roots` and answers the output. */
  finish(roots: SceneNode[]): Promise<ToolOutput>;
  /** Removes whatever a failed run wrote (the temporary file, a partial GLB). */
  discard(): Promise<void>;
}

/** The GLB output `name`: streamed into the host's output folder when there is one, else built in memory. */
export async function openGlbOutput(ctx: Pick<RunContext, "outputDir">, name: string, options: GlbOptions): Promise<GlbOutput> {
  const access = ctx.outputDir ? hostFileAccess() : undefined;
  if (!ctx.outputDir || !access?.writeAtSync) return memoryGlb(name, options);
  return hostGlb(access, ctx.outputDir, name, options);
}

function memoryGlb(name: string, options: GlbOptions): GlbOutput {
  const parts: MeshPart[] = [];
  return {
    addPart: (part) => parts.push(part) - 1,
    finish: async (roots) => output(name, "glb", writeGlb({ parts, roots }, options)),
    discard: async () => void parts.splice(0),
  };
}

/** A temporary file in the output folder, appended to synchronously (from inside an engine's loop). */
class TempFile implements TextSpill {
  byteLength = 0;

  private constructor(
    private readonly access: HostFileAccess,
    readonly path: string,
  ) {}

  static async create(access: HostFileAccess, dir: string, name: string): Promise<TempFile> {
    const { file, path } = await access.create(dir, name);
    await file.close();
    return new TempFile(access, path);
  }

  write(bytes: Uint8Array): void {
    this.writeAt(bytes, this.byteLength);
  }

  writeAt(bytes: Uint8Array, position: number): void {
    this.access.writeAtSync!(this.path, bytes, position);
    this.byteLength = Math.max(this.byteLength, position + bytes.length);
  }
}

/**
 * The GLB streamed into `dir`: the BIN chunk and the JSON text of the meshes, accessors and
 * buffer views (the parts of the JSON that grow with the elements) go to temporary files as the
 * parts come; the nodes, known only with the scene tree at the end, are the only text kept.
 */
async function hostGlb(access: HostFileAccess, dir: string, name: string, options: GlbOptions): Promise<GlbOutput> {
  // The output's own name is the host's to store; the files only need names no other output of the run has.
  const fileName = name.replace(/[^\w.-]/g, "_");
  const temps: TempFile[] = [];
  const temp = async (kind: string) => {
    const file = await TempFile.create(access, dir, `${fileName}.${kind}.part`);
    temps.push(file);
    return file;
  };
  let written: string | undefined;
  const discard = async () => {
    for (const file of temps.splice(0)) await access.remove(file.path);
    if (written) await access.remove(written);
  };
  try {
    const binFile = await temp("bin");
    const bin = new StreamedBinary((bytes, position) => binFile.writeAt(bytes, position), await temp("views"));
    const glb = new GlbBuilder(options, bin, { meshes: await temp("meshes"), accessors: await temp("accessors") });
    const meshOfPart: (number | undefined)[] = [];
    return {
      addPart: (part) => meshOfPart.push(glb.addPart(part)) - 1,
      async finish(roots) {
        const json = glb.json(roots, (part) => meshOfPart[part]);
        bin.flush();
        const framing = glbFraming(json, bin.length);
        const { file, path } = await access.create(dir, fileName);
        written = path;
        try {
          for (const piece of [framing.head, ...json, framing.jsonPadding, framing.binHead, binFile]) {
            if (piece instanceof TempFile) await copyInto(access, piece.path, file);
            else await file.write(piece as Uint8Array);
          }
        } finally {
          await file.close();
        }
        written = undefined;
        await discard();
        return { name, bytes: new Uint8Array(0), mime: mimeOf("glb"), path };
      },
      discard,
    };
  } catch (err) {
    await discard();
    throw err;
  }
}

/** Appends the whole file at `path` to `file`, a piece at a time. */
async function copyInto(access: HostFileAccess, path: string, file: { write(bytes: Uint8Array): Promise<void> }): Promise<void> {
  const source = await access.openRead(path);
  try {
    const piece = new Uint8Array(COPY_PIECE);
    for (let at = 0, n; (n = await source.read(piece, at)) > 0; at += n) await file.write(piece.subarray(0, n));
  } finally {
    await source.close();
  }
}

