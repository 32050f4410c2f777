/** Small helpers every benchmark shares: medians, units, the machine's other load, and the printed table. */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

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

/** CPU seconds of one process (its own plus its reaped children's) from /proc/<pid>/stat. */
function cpuSecondsOf(pid: number | "self"): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100; // utime stime cutime cstime
  } catch {
    return 0;
  }
}

/** Busy CPU seconds of the whole machine (everything but idle and iowait) from /proc/stat. */
export function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0].split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}

/**
 * How much of the machine other processes used while a benchmark ran: on a shared machine a
 * busy neighbour skews every number, and this says whether that happened. Approximate: kernel
 * threads doing our writeback count as "others" too.
 */
export class CpuWatch {
  private readonly t0 = performance.now();
  private readonly busy0 = machineBusySeconds();
  private readonly own0 = cpuSecondsOf("self");

  /** `pids`: our other live processes (the server); their CPU since they started counts as ours. */
  note(pids: number[] = []): string {
    const wall = (performance.now() - this.t0) / 1000;
    const cpus = availableParallelism();
    const own = cpuSecondsOf("self") - this.own0 + pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
    const others = Math.max(0, machineBusySeconds() - this.busy0 - own);
    const share = others / (wall * cpus);
    const warn = share > 0.1 ? " -- WARNING: the machine was busy with other work, numbers are unreliable" : "";
    return `machine: ${cpus} CPUs; over ${wall.toFixed(0)} s this benchmark used ${own.toFixed(0)} CPU-s, other processes ${others.toFixed(0)} CPU-s (${(100 * share).toFixed(0)}% of the machine)${warn}`;
  }
}
