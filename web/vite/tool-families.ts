/**
 * Build-time map of what each tool family needs from the tool worker's bundle, written to
 * `tool-families.json` as `{ families: { family: [url, ...] }, all: [url, ...] }` (all: every
 * file of the worker bundle). A family's list has every chunk that holds a module of the
 * family (wasm-tools/src/<family>/...), the chunks those import, and the WASM and data files
 * they reference. The service worker caches tool files on use; once a family has run, the page
 * fetches the rest of that family's list (src/tools/offline.ts), so every tool of a family used
 * once works offline, and the page can tell which families are available offline.
 * A family is a folder of wasm-tools/src with tool folders (`<tool>/manifest.ts`) in it.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { Plugin, Rolldown } from "vite";

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

export const FAMILIES_FILE = "tool-families.json";

function isFamily(toolsDir: string, name: string): boolean {
  const dir = join(toolsDir, name);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return false;
  return readdirSync(dir).some((tool) => existsSync(join(dir, tool, "manifest.ts")));
}

/** The family of a module id, or undefined when it is not a family's module. */
function familyOf(toolsDir: string, id: string, known: Map<string, boolean>): string | undefined {
  const rel = relative(toolsDir, id.split("?")[0]);
  if (rel.startsWith("..") || !rel.includes(sep)) return undefined;
  const name = rel.split(sep)[0];
  if (!known.has(name)) known.set(name, isFamily(toolsDir, name));
  return known.get(name) ? name : undefined;
}

/** Family -> files (relative to the build root) of the worker `bundle`. */
export function familyFiles(toolsDir: string, bundle: OutputBundle): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === "chunk");
  const assets = Object.values(bundle).filter((o) => o.type === "asset" && /\.(wasm|data)$/.test(o.fileName));
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const known = new Map<string, boolean>();
  const out: Record<string, Set<string>> = {};
  const add = (family: string, chunk: OutputChunk) => {
    const files = (out[family] ??= new Set());
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const asset of assets) if (chunk.code.includes(basename(asset.fileName))) files.add(asset.fileName);
    // Static imports always; dynamic ones (a family's library glue, loaded by its init) unless
    // they belong to another family.
    for (const name of [...chunk.imports, ...chunk.dynamicImports]) {
      const imported = byName.get(name);
      const owners = imported ? familiesOf.get(imported)! : undefined;
      if (imported && (chunk.imports.includes(name) || owners!.size === 0 || owners!.has(family))) add(family, imported);
    }
  };
  const familiesOf = new Map(chunks.map((c) => [c, new Set(c.moduleIds.map((id) => familyOf(toolsDir, id, known)).filter((f): f is string => f !== undefined))]));
  for (const [chunk, families] of familiesOf) for (const family of families) add(family, chunk);
  return Object.fromEntries(Object.entries(out).map(([family, files]) => [family, [...files].sort()]));
}

/**
 * Two plugins sharing one map: `worker` reads the worker bundle, `page` writes the JSON into the
 * page's build (the worker bundle is built while the page's modules are transformed, so it is
 * complete by the page's generateBundle).
 */
export function toolFamilies(toolsDir: string): { worker: () => Plugin; page: () => Plugin } {
  let map: Record<string, string[]> = {};
  let files: string[] = [];
  return {
    worker: () => ({
      name: "vektor:tool-families-worker",
      apply: "build",
      generateBundle(_options, bundle) {
        map = familyFiles(toolsDir, bundle);
        files = Object.keys(bundle);
      },
    }),
    page: () => ({
      name: "vektor:tool-families",
      apply: "build",
      generateBundle() {
        const url = (file: string) => `/${file}`;
        const families = Object.fromEntries(Object.entries(map).map(([family, list]) => [family, list.map(url)]));
        this.emitFile({ type: "asset", fileName: FAMILIES_FILE, source: JSON.stringify({ families, all: files.map(url).sort() }) });
      },
    }),
  };
}
