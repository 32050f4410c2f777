/** Small helpers every benchmark shares: medians, units, and the printed table. */

export const MiB = 1024 * 1024;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs `fn` `runs` times (each run returns its own measured milliseconds); returns every run's ms. */
export async function repeat(runs: number, fn: (run: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await fn(i));
  return out;
}

/** MB/s in MiB per second, as `cp`-style tools count. */
export function mbps(bytes: number, ms: number): number {
  return bytes / MiB / (ms / 1000);
}

export const fixed = (n: number, digits = 0) => n.toFixed(digits);

/** Prints rows as an aligned Markdown table (readable in a terminal, pastable into an issue); numeric columns right-aligned. */
export function printTable(headers: string[], rows: (string | number)[][]): void {
  const body = rows.map((r) => r.map(String));
  const cells = [headers, ...body];
  const width = headers.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? "").length)));
  const numeric = headers.map((_, c) => body.every((r) => /^(-?[\d.]+%?|-)$/.test(r[c] ?? "")));
  const line = (r: string[]) => `| ${r.map((v, c) => (numeric[c] ? v.padStart(width[c]) : v.padEnd(width[c]))).join(" | ")} |`;
  console.log(line(headers));
  console.log(`|${width.map((w, c) => (numeric[c] ? "-".repeat(w + 1) + ":" : ":" + "-".repeat(w + 1))).join("|")}|`);
  for (const r of body) console.log(line(r));
}
