/**
 * A bigger STEP or IFC file made from a real one: its DATA section `copies` times, each copy's
 * ids shifted past the previous one's (each copy its own entities, products and project). For
 * tests and benchmarks that need a realistic model of a given size. Test-only.
 */
import { readFileSync } from "node:fs";

export function stepCopies(source: string, copies: number): Uint8Array {
  const text = readFileSync(source, "latin1");
  const start = text.indexOf("DATA;") + 5;
  const end = text.lastIndexOf("ENDSEC;");
  const data = text.slice(start, end);
  const top = Math.max(...[...data.matchAll(/#(\d+)/g)].map((m) => Number(m[1])));
  const parts = Array.from({ length: copies }, (_, k) => data.replace(/#(\d+)/g, (_m, n) => `#${Number(n) + k * top}`));
  return Buffer.from(text.slice(0, start) + parts.join("") + text.slice(end), "latin1");
}
