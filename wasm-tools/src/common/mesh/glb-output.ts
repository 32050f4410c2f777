/**
 * A GLB output built a part at a time. Where the host gives an output folder (the server), each
 * part's buffer views go straight to a temporary BIN file there as the part is added, and only
 * the JSON text (accessors, views, meshes) stays in memory; at the end the GLB is written as
 * header, JSON and that file's bytes, and the temporary file removed. So memory does not grow
 * with the scene's triangles. Elsewhere (the browser, tests passing bytes) the parts are kept and
 * written by writeGlb at the end, as before. Both give the same bytes.
 */
import { mimeOf } from "@vektor/shared/formats";
import type { RunContext, ToolOutput } from "@vektor/shared/tools/manifest";
import { output } from "../../runtime/context";
import { hostFileAccess, type HostFileAccess } from "../../runtime/host-files";
import { GlbBuilder, glbFraming, StreamedBinary, writeGlb, type GlbOptions } from "./glb";
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

async function hostGlb(access: HostFileAccess, dir: string, name: string, options: GlbOptions): Promise<GlbOutput> {
  // The output's own name is the host's to store; the files only need names no other output of the run has.
  const fileName = name.replace(/[^\w.-]/g, "_");
  const temp = await access.create(dir, `${fileName}.bin.part`);
  await temp.file.close();
  const bin = new StreamedBinary((bytes, position) => access.writeAtSync!(temp.path, bytes, position));
  const glb = new GlbBuilder(options, bin);
  const meshOfPart: (number | undefined)[] = [];
  let written: string | undefined;
  return {
    addPart: (part) => meshOfPart.push(glb.addPart(part)) - 1,
    async finish(roots) {
      const json = glb.json(roots, (part) => meshOfPart[part]);
      bin.flush();
      const framing = glbFraming(json, bin.length);
      const { file, path } = await access.create(dir, fileName);
      written = path;
      try {
        for (const piece of [framing.head, ...json, framing.jsonPadding, framing.binHead]) await file.write(piece);
        await copyInto(access, temp.path, file);
      } finally {
        await file.close();
      }
      await access.remove(temp.path);
      return { name, bytes: new Uint8Array(0), mime: mimeOf("glb"), path };
    },
    async discard() {
      await access.remove(temp.path);
      if (written) await access.remove(written);
    },
  };
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

