/**
 * The same run code must work in a browser Web Worker: no Node built-ins, no Node or DOM
 * globals in anything a tool's run.ts reaches inside src/, only known packages, and the whole
 * catalog bundles for the browser.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { listManifests } from "../registry";

const SRC = resolve(import.meta.dir, "..");
const PACKAGES = ["@sinclair/typebox", "@vektor/shared", "pdf-lib", "mupdf", "laz-perf", "gerber-parser", "gerber-plotter", "gerber-to-svg", "pcb-stackup-core", "whats-that-gerber", "xml-element-string", "fflate", "gdal3.js", "occt-import-js", "web-ifc", "@mlightcad/libredwg-web", "dxf-parser", "three"];
const FORBIDDEN: [RegExp, string][] = [
  [/\bfrom\s+["'](?:node:[^"']+|(?:fs|path|os|url|module|child_process|worker_threads)(?:\/[^"']*)?)["']/, "imports a Node built-in"],
  [/\bimport\(\s*["']node:/, "imports a Node built-in"],
  [/\bBuffer\b/, "uses Buffer (use Uint8Array)"],
  [/\bprocess\.|\brequire\(/, "uses process or require"],
  [/\b(document|window|localStorage|navigator)\./, "uses a DOM global"],
  [/\bBun\./, "uses the Bun global"],
];

/** Source files reachable from `entry` through relative imports; package specifiers go to `packages`. */
function reach(entry: string, files = new Set<string>(), packages = new Set<string>()): { files: Set<string>; packages: Set<string> } {
  if (files.has(entry)) return { files, packages };
  files.add(entry);
  const source = readFileSync(entry, "utf8");
  for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    if (spec.startsWith(".")) reach(resolve(dirname(entry), spec.endsWith(".ts") ? spec : `${spec}.ts`), files, packages);
    else packages.add(spec);
  }
  return { files, packages };
}

/** Source without comments (doc comments may mention process or Buffer). */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

describe("portability", () => {
  test("run modules reach no Node built-ins, Node/DOM globals or unknown packages", () => {
    const problems: string[] = [];
    for (const { slug, family } of listManifests()) {
      const operation = slug.slice(family.length + 1);
      const { files, packages } = reach(join(SRC, family, operation, "run.ts"));
      for (const file of files) {
        for (const [pattern, why] of FORBIDDEN) if (pattern.test(code(file))) problems.push(`${relative(SRC, file)} ${why} (reached from ${slug})`);
      }
      for (const pkg of packages) if (!PACKAGES.some((p) => pkg === p || pkg.startsWith(`${p}/`))) problems.push(`${slug} reaches package ${pkg}`);
    }
    expect(problems).toEqual([]);
  });

  test("the LAS header reader, which the web app's point-cloud viewer imports, reaches no WASM", () => {
    const { files, packages } = reach(join(SRC, "pointcloud", "las", "header.ts"));
    expect([...files].map((f) => relative(SRC, f))).toEqual([join("pointcloud", "las", "header.ts")]);
    expect([...packages]).toEqual(["@vektor/shared/tools/manifest"]);
  });

  test("the scan notices a violation", () => {
    const dir = mkdtempSync(join(tmpdir(), "purity-"));
    try {
      writeFileSync(join(dir, "run.ts"), 'import { helper } from "./helper";\n');
      writeFileSync(join(dir, "helper.ts"), 'import { readFileSync } from "node:fs";\nexport const helper = Buffer.from("x");\n');
      const { files } = reach(join(dir, "run.ts"));
      const hits = [...files].flatMap((f) => FORBIDDEN.filter(([p]) => p.test(code(f))).map(([, why]) => why));
      expect(hits).toEqual(["imports a Node built-in", "uses Buffer (use Uint8Array)"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the catalog and every run module bundle for the browser", async () => {
    const dir = mkdtempSync(join(tmpdir(), "browser-bundle-"));
    try {
      const entry = join(dir, "entry.ts");
      const runs = listManifests().map(({ slug, family }) => join(SRC, family, slug.slice(family.length + 1), "run.ts"));
      writeFileSync(entry, [`export * from ${JSON.stringify(join(SRC, "index.ts"))};`, ...runs.map((r, i) => `export * as run${i} from ${JSON.stringify(r)};`)].join("\n"));
      // A separate `bun build` process: inside `bun test`, Bun.build reuses the runtime's module
      // resolution and would pick laz-perf's Node build. mupdf's glue imports "module" and
      // "node:fs" only when it detects Node; browsers never evaluate those branches.
      const out = join(dir, "out");
      const build = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=esm", `--outdir=${out}`, "--external=module", "--external=node:fs"], { stderr: "pipe", stdout: "pipe" });
      expect(build.stderr.toString()).not.toMatch(/error/i);
      expect(build.exitCode).toBe(0);
      const bundle = readFileSync(join(out, "entry.js"), "utf8");
      const has = (needle: string) => bundle.includes(needle);
      expect({
        pdfLib: has("pdf-lib"),
        mupdfGlue: has("$libmupdf_wasm_Module"),
        lazPerfBrowserBuild: has("laz-perf/lib/web/laz-perf.js"),
        lazPerfNodeBuild: has("laz-perf/lib/node/"),
        nodeProcessHandlers: has('process["on"]("unhandledRejection"'),
        serverLocator: has("node-wasm.ts"),
      }).toEqual({ pdfLib: true, mupdfGlue: true, lazPerfBrowserBuild: true, lazPerfNodeBuild: false, nodeProcessHandlers: false, serverLocator: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
