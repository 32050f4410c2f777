/**
 * Build-time half of the browser's WASM locator. A family's `init.ts` in wasm-tools names the
 * binaries it needs as `WasmModuleRef` literals (`{ family, name, pkg, file }`). For every such
 * module that is part of the worker bundle (so only families the registry actually pulls in),
 * this plugin resolves `pkg` with the browser's conditions, emits `<dir of pkg entry>/<file>` as a
 * hashed asset, and appends one line that records the asset's URL in a table on `globalThis`
 * (under `Symbol.for(WASM_URLS_KEY)`), which `web/src/workers/wasm-urls.ts` reads. A global and not
 * an import: the dev server may load one file under two URLs, which would make two tables.
 * A new family's WASM is therefore bundled as soon as the family is registered, with no table
 * to edit here.
 */
import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import type { Plugin } from "vite";

/** The `Symbol.for` key of the URL table (web/src/workers/wasm-urls.ts uses the same). */
export const WASM_URLS_KEY = "vektor.wasm-urls";

/** One WasmModuleRef literal as written in a family's init.ts. */
export interface FoundRef {
  name: string;
  pkg: string;
  file: string;
}

const OBJECT = /\{[^{}]*\bpkg\s*:\s*["'][^"']+["'][^{}]*\}/g;
const field = (text: string, key: string) => new RegExp(`\\b${key}\\s*:\\s*["']([^"']+)["']`).exec(text)?.[1];

/** The WasmModuleRef literals in `code` (objects with string `name`, `pkg`, `file` and `family`). */
export function findWasmRefs(code: string): FoundRef[] {
  const refs: FoundRef[] = [];
  for (const [text] of code.matchAll(OBJECT)) {
    const name = field(text, "name");
    const pkg = field(text, "pkg");
    const file = field(text, "file");
    if (name && pkg && file && field(text, "family")) refs.push({ name, pkg, file });
  }
  return refs;
}

/** The dev server's optimizer state, as far as this plugin reads it. */
interface DevEnvironment {
  environment?: { depsOptimizer?: { metadata: { optimized: Record<string, { src?: string }>; discovered: Record<string, { src?: string }> } } };
}

/** In the dev server, `pkg` resolves to a pre-bundled copy in .vite/deps: this is its real entry file. */
function prebundledSource(context: unknown, pkg: string): string | undefined {
  const metadata = (context as DevEnvironment).environment?.depsOptimizer?.metadata;
  return metadata?.optimized[pkg]?.src ?? metadata?.discovered[pkg]?.src;
}

/** @param toolsDir absolute path of `wasm-tools/src` (only its modules are scanned) */
export function wasmRefs(toolsDir: string): Plugin {
  const root = toolsDir.endsWith(sep) ? toolsDir : toolsDir + sep;
  return {
    name: "vektor:wasm-refs",
    async transform(code, id) {
      const path = id.split("?")[0];
      if (!path.startsWith(root) || /\.test\.[cm]?[jt]s$/.test(path)) return null;
      const refs = findWasmRefs(code);
      if (refs.length === 0) return null;
      const table = `(globalThis[Symbol.for(${JSON.stringify(WASM_URLS_KEY)})] ??= new Map())`;
      const lines: string[] = [];
      for (const [i, ref] of refs.entries()) {
        const entry = await this.resolve(ref.pkg, path);
        const resolved = entry && !entry.external ? (prebundledSource(this, ref.pkg) ?? entry.id.split("?")[0]) : undefined;
        const file = resolved ? join(dirname(resolved), ref.file) : undefined;
        if (!file || !existsSync(file)) {
          this.warn(`WASM "${ref.name}": ${ref.file} not found beside ${ref.pkg}'s browser entry (${entry?.id ?? "unresolved"}); the library's own lookup applies`);
          continue;
        }
        lines.push(`import __vektorWasm${i} from ${JSON.stringify(`${file}?url`)};`);
        lines.push(`${table}.set(${JSON.stringify(ref.name)}, __vektorWasm${i});`);
      }
      return { code: `${code}\n${lines.join("\n")}\n`, map: null };
    },
  };
}
