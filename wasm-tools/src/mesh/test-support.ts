/** Test-only helpers for the mesh family: a real STL from occt-import-js's test files, meshes made in code, runs as hosts do. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { meshTools } from "./index";

const OCCT_TESTFILES = fileURLToPath(new URL("../test/testfiles/", import.meta.resolve("occt-import-js")));

/** occt-import-js's 10 mm cube as binary STL (12 triangles). */
export function cubeStl(): ToolInput {
  return { name: "cube.stl", bytes: new Uint8Array(readFileSync(`${OCCT_TESTFILES}cube-10x10mm/Cube 10x10.stl`)) };
}

/** A closed UV sphere of radius `r` as ASCII STL text, `rings` x `segments` quads (poles as triangles). */
export function sphereAsciiStl(r: number, rings: number, segments: number): string {
  const point = (i: number, j: number) => {
    const theta = (Math.PI * i) / rings;
    const phi = (2 * Math.PI * (j % segments)) / segments;
    // Exact poles and seam keep shared edges identical, so the sphere is watertight.
    if (i === 0) return [0, 0, r];
    if (i === rings) return [0, 0, -r];
    return [r * Math.sin(theta) * Math.cos(phi), r * Math.sin(theta) * Math.sin(phi), r * Math.cos(theta)].map((v) => Number(v.toFixed(6)));
  };
  const facets: string[] = [];
  const facet = (a: number[], b: number[], c: number[]) => facets.push(`facet normal 0 0 0\nouter loop\nvertex ${a.join(" ")}\nvertex ${b.join(" ")}\nvertex ${c.join(" ")}\nendloop\nendfacet`);
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const [a, b, c, d] = [point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)];
      if (i > 0) facet(a, b, d);
      if (i < rings - 1) facet(b, c, d);
    }
  }
  return `solid sphere\n${facets.join("\n")}\nendsolid sphere\n`;
}

export function runMesh(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}): Promise<ToolOutput[]> {
  const entry = meshTools.find((t) => t.manifest.slug === slug);
  if (!entry) throw new Error(`no mesh tool ${slug}`);
  return executeEntry(entry, inputs, params);
}
