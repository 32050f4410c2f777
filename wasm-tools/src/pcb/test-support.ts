/**
 * Test helpers for the PCB family: tools run through `executeEntry` from this family's list (the
 * same checks a host's `execute` applies), fixtures from @tracespace/fixtures, SVGs parsed with a
 * real XML parser, ZIPs built in memory. Test-only: never imported by a run.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { zipSync } from "fflate";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { pcbTools } from "./index";

/** Runs the PCB tool `slug` the way hosts do. */
export function runPcb(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ToolOutput[]> {
  const entry = pcbTools.find((e) => e.manifest.slug === slug);
  if (!entry) throw new Error(`no PCB tool ${slug}`);
  return executeEntry(entry, inputs, params, { signal });
}

/** Root folder of @tracespace/fixtures. */
export const FIXTURES = dirname(fileURLToPath(import.meta.resolve("@tracespace/fixtures/package.json")));

/** A board's files (from its manifest.json, which also says each layer's expected type and side). */
export function boardFiles(board: string): { files: { name: string; bytes: Uint8Array }[]; manifest: { name: string; type: string; side: string; format: string }[] } {
  const dir = join(FIXTURES, "boards", board);
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).layers;
  const files = readdirSync(dir)
    .filter((f) => f !== "manifest.json" && !f.startsWith("LICENSE"))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
  return { files, manifest };
}

/** A ZIP holding `files` (optionally under a folder), as a tool input. */
export function zipInput(name: string, files: { name: string; bytes: Uint8Array }[], folder = ""): ToolInput {
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) entries[folder + f.name] = f.bytes;
  return { name, bytes: zipSync(entries, { mtime: new Date("2020-01-01T00:00:00Z") }) };
}

/** A fixture file from @tracespace/fixtures as a tool input. */
export function fixtureInput(path: string): ToolInput {
  return { name: path.split("/").pop()!, bytes: new Uint8Array(readFileSync(join(FIXTURES, path))) };
}

/** An element of a parsed SVG: attributes prefixed `@_`, children by tag name. */
export type SvgNode = Record<string, unknown>;

/** Parses SVG text with fast-xml-parser after validating it; returns the root <svg> element. */
export function parseSvg(svg: string): SvgNode {
  const valid = XMLValidator.validate(svg);
  if (valid !== true) throw new Error(`invalid XML: ${JSON.stringify(valid.err)}`);
  const doc = new XMLParser({ ignoreAttributes: false, preserveOrder: false, isArray: (name, _path, _leaf, isAttribute) => !isAttribute && name !== "svg" }).parse(svg) as SvgNode;
  const keys = Object.keys(doc).filter((k) => !k.startsWith("?"));
  if (keys.length !== 1 || keys[0] !== "svg") throw new Error(`root element is ${keys.join(", ")}, not svg`);
  return doc.svg as SvgNode;
}

/** viewBox of a parsed <svg> as numbers. */
export function viewBox(svg: SvgNode): number[] {
  return String(svg["@_viewBox"]).trim().split(/[\s,]+/).map(Number);
}

/** A length attribute such as `2.7in` or `68.58mm`, in mm. */
export function lengthMm(value: unknown): number {
  const m = /^([\d.]+)(in|mm)$/.exec(String(value));
  if (!m) throw new Error(`not a length in in/mm: ${String(value)}`);
  return Number(m[1]) * (m[2] === "in" ? 25.4 : 1);
}

/** Every element with tag `tag` anywhere below `node`. */
export function findAll(node: unknown, tag: string, found: SvgNode[] = []): SvgNode[] {
  if (Array.isArray(node)) for (const n of node) findAll(n, tag, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("@_")) continue;
      if (key === tag) (Array.isArray(value) ? value : [value]).forEach((v) => found.push(v as SvgNode));
      findAll(value, tag, found);
    }
  }
  return found;
}

/**
 * An independent reference for a Gerber outline's extent: the min/max of its X/Y coordinates,
 * read with a regex from the format statement (%FS...%) and units (%MO..%), sharing no code with
 * gerber-parser. Arcs' bulges beyond their end points are not counted, so use it on outlines
 * whose extremes are vertices.
 */
export function referenceExtentMm(text: string): { widthMm: number; heightMm: number } {
  const fs = /%FS([LT])([AI])X(\d)(\d)Y(\d)(\d)\*%/.exec(text);
  if (!fs) throw new Error("no %FS statement");
  const [, zero, , , xDec] = fs;
  const inch = /%MOIN\*%/.test(text) || /G70\*/.test(text);
  const digits = Number(fs[3]) + Number(fs[4]);
  const value = (raw: string) => {
    const sign = raw.startsWith("-") ? -1 : 1;
    let d = raw.replace(/^[+-]/, "");
    if (zero === "L") d = d.padStart(digits, "0");
    else d = d.padEnd(digits, "0");
    return (sign * Number(d)) / 10 ** Number(xDec);
  };
  let x = 0;
  let y = 0;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const m of text.matchAll(/(?:X([+-]?\d+))?(?:Y([+-]?\d+))?(?:I[+-]?\d+)?(?:J[+-]?\d+)?D0?[123]\*/g)) {
    if (m[1] === undefined && m[2] === undefined) continue;
    if (m[1] !== undefined) x = value(m[1]);
    if (m[2] !== undefined) y = value(m[2]);
    xs.push(x);
    ys.push(y);
  }
  const k = inch ? 25.4 : 1;
  return { widthMm: (Math.max(...xs) - Math.min(...xs)) * k, heightMm: (Math.max(...ys) - Math.min(...ys)) * k };
}
