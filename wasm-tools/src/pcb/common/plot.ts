/**
 * One Gerber or Excellon file -> a finished gerber-to-svg converter, driven synchronously.
 *
 * gerber-to-svg is a chain of readable-stream Transforms whose plumbing calls the Node global
 * `process.nextTick`, which a browser Web Worker does not have. The same three stages are run
 * here without the plumbing: gerber-parser's own `parseSync`, then each object through the
 * plotter and the SVG converter (`_transform`/`_flush`, the Transform implementer API) with their
 * `push` captured. Same code, same output, no `process`; and warnings are collected on the way.
 */
import gerberParser from "gerber-parser";
import gerberPlotter from "gerber-plotter";
import gerberToSvg from "gerber-to-svg";
import PlotterToSvg from "gerber-to-svg/lib/plotter-to-svg";
import xmlElementString from "xml-element-string";
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../../runtime/context";

/** What gerber-parser emits: tools, operations, settings, `done` (the typed fields the tools read). */
export interface ParsedObject {
  type: string;
  line?: number;
  prop?: string;
  value?: unknown;
  code?: string;
  op?: string;
  tool?: { shape: string; params: number[]; hole: number[] };
}

/** A non-fatal problem gerber-parser or gerber-plotter noticed (deprecated commands, guesses). */
export interface PlotWarning {
  message: string;
  line: number;
}

/** The public result of a converter (`gerberToSvg.clone`): what pcb-stackup needs to stack a layer. */
export interface ConverterResult {
  id: string;
  attributes: Record<string, unknown>;
  defs: string[];
  layer: string[];
  /** [x, y, width, height] in thousandths of `units`. */
  viewBox: number[];
  width: number;
  height: number;
  units: "in" | "mm";
}

export interface PlotOptions {
  /** Prefix of the SVG's internal ids; fixed ids keep output deterministic. */
  id: string;
  backupUnits?: "in" | "mm";
  optimizePaths?: boolean;
  /** `true`, or the gap in mm to close, plots the layer as a board outline. */
  plotAsOutline?: boolean | number;
  attributes?: Record<string, string>;
}

export interface PlottedLayer {
  svg: string;
  converter: ConverterResult;
  filetype: "gerber" | "drill";
  parsed: ParsedObject[];
  warnings: PlotWarning[];
}

interface Stage {
  push: (chunk: unknown) => boolean;
  _transform(chunk: unknown, encoding: string | null, done: (err?: Error | null) => void): void;
  _flush(done: (err?: Error | null) => void): void;
  on(event: "warning", listener: (w: PlotWarning) => void): void;
}

const MAX_WARNINGS = 200;

/** Characters a text file has no business containing (C0 controls other than tab, LF, FF, CR; DEL). */
function isControl(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) || byte === 0x7f;
}

/**
 * Gerber and Excellon are ASCII text. A NUL byte or more than 1% control characters means
 * something else (a PDF's binary streams, an image, random bytes). Bytes above 0x7f are let
 * through as Latin-1: some CAD tools write accented comments.
 */
export function decodeGerberText(name: string, bytes: Uint8Array): string {
  let controls = 0;
  for (const byte of bytes) {
    if (byte === 0) throw notGerber(name, "it contains binary data");
    if (isControl(byte)) controls++;
  }
  if (controls > bytes.length / 100) throw notGerber(name, "it contains binary data");
  return new TextDecoder("latin1").decode(bytes);
}

function notGerber(name: string, why: string): ToolError {
  return new ToolError("INPUT_INVALID", `"${name}" is not a Gerber (RS-274X) or Excellon drill file: ${why}`);
}

/** Feeds `chunk` through a stage, turning its callback error into a throw. */
function step(stage: Stage, chunk: unknown): void {
  stage._transform(chunk, null, (err) => {
    if (err) throw err;
  });
}

function finish(stage: Stage): void {
  stage._flush((err) => {
    if (err) throw err;
  });
}

/** Parses and plots `text` (a whole Gerber or drill file) into an SVG. Throws ToolError INPUT_INVALID. */
export function plotLayer(name: string, text: string, options: PlotOptions): PlottedLayer {
  const warnings: PlotWarning[] = [];
  const warn = (w: PlotWarning) => {
    if (warnings.length < MAX_WARNINGS) warnings.push({ message: w.message, line: w.line });
  };

  const parser = gerberParser({}) as unknown as Stage & {
    parseSync(file: string): ParsedObject[];
    format: { filetype: "gerber" | "drill" | null };
  };
  parser.on("warning", warn);
  let parsed: ParsedObject[];
  try {
    parsed = parser.parseSync(text);
  } catch (err) {
    // gerber-parser tells the type from the first `*` (Gerber) or line end (drill); text with neither throws
    throw notGerber(name, /filetype/.test(errorMessage(err)) ? "it has no Gerber blocks (`*`) and no lines" : errorMessage(err));
  }
  const filetype = parser.format.filetype;
  if (!filetype || !looksLikeAPlot(parsed)) {
    throw notGerber(name, "no apertures, tools, draw or flash commands and no end-of-file command were found");
  }

  const plotter = gerberPlotter({
    backupUnits: options.backupUnits,
    optimizePaths: options.optimizePaths,
    plotAsOutline: options.plotAsOutline,
  }) as unknown as Stage;
  const converter = new PlotterToSvg(options.id, options.attributes ?? {}, xmlElementString, false) as unknown as Stage & ConverterResult;
  const plotted: unknown[] = [];
  let svg = "";
  plotter.push = (chunk) => (plotted.push(chunk), true);
  converter.push = (chunk) => ((svg += String(chunk)), true);
  plotter.on("warning", warn);
  try {
    for (const object of parsed) step(plotter, object);
    finish(plotter);
    for (const object of plotted) step(converter, object);
    finish(converter);
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${name}" could not be plotted: ${errorMessage(err)}`);
  }
  // The typing wants the stream Converter; clone reads only the finished fields this stage has.
  const result = gerberToSvg.clone(converter as unknown as Parameters<typeof gerberToSvg.clone>[0]) as unknown as ConverterResult;
  return { svg, converter: result, filetype, parsed, warnings };
}

/**
 * gerber-parser guesses the file type from the first `*` or newline, so any text "parses".
 * A real layer has at least an aperture/tool, an operation or an end-of-file command (M02/M30).
 */
function looksLikeAPlot(parsed: ParsedObject[]): boolean {
  return parsed.some((o) => o.type === "tool" || o.type === "op" || o.type === "done");
}

/** Millimetres per unit of a converter's viewBox (thousandths of inches or of millimetres). */
export function mmPerViewBoxUnit(units: "in" | "mm"): number {
  return units === "in" ? 0.0254 : 0.001;
}

/** An id usable inside SVG (letters, digits, `_`, `-`), from a file name. */
export function svgId(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[^A-Za-z]+/, "");
  return cleaned ? `g_${cleaned}` : "g_layer";
}
