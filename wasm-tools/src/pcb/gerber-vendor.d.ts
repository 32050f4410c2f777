/**
 * Typings for two internals of gerber-to-svg that plot.ts drives directly (the package types
 * only its public entry). Only what plot.ts uses.
 */
declare module "gerber-to-svg/lib/plotter-to-svg" {
  /** The SVG stage of gerber-to-svg: a Transform from plotter objects to SVG text. */
  export default class PlotterToSvg {
    constructor(id: string, attributes: Record<string, unknown>, createElement: unknown, objectMode: boolean);
  }
}

declare module "xml-element-string" {
  /** Renders one XML element with its attributes and children as a string. */
  export default function xmlElementString(tag: string, attributes?: Record<string, unknown>, children?: string[]): string;
}
