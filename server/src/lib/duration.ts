/** Durations in messages people read: "300 ms", "1.5 s", "45 s", "5 min", "2 h". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim(ms / 1000)} s`;
  if (ms < 3_600_000) return `${trim(ms / 60_000)} min`;
  return `${trim(ms / 3_600_000)} h`;
}

/** One decimal below 10, none above: "1.5", "12", "2". */
function trim(value: number): string {
  const fixed = value < 10 ? value.toFixed(1) : value.toFixed(0);
  return fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed;
}
