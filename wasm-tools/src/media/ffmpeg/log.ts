/** Reading ffmpeg's log: input duration, encoding position (for progress), streams, and the reason for a failure. */

/** `HH:MM:SS.ss` -> seconds. */
function clock(h: string, m: string, s: string): number {
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** `Duration: 00:00:30.00` of the first input, in seconds; undefined when unknown (`N/A`). */
export function parseDuration(line: string): number | undefined {
  const m = /Duration:\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(line);
  return m ? clock(m[1], m[2], m[3]) : undefined;
}

/** The `time=00:00:12.34` of a progress line, in seconds. */
export function parseTime(line: string): number | undefined {
  const matches = [...line.matchAll(/time=\s*(-?)(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)];
  const last = matches.at(-1);
  if (!last || last[1] === "-") return undefined;
  return clock(last[2], last[3], last[4]);
}

/** What the first input holds, from its `Stream #0:n: Video: ...` / `Audio: ...` lines. */
export interface InputStreams {
  video: boolean;
  audio: boolean;
  /** The input's duration in seconds, when the container says. */
  duration?: number;
  /** Width x height of the first video stream. */
  size?: [number, number];
}

/** Scans the header lines ffmpeg prints for input #0. */
export function parseInput(lines: string[]): InputStreams {
  const result: InputStreams = { video: false, audio: false };
  let inInput = false;
  for (const line of lines) {
    if (/^Input #0,/.test(line)) inInput = true;
    else if (/^(Input #[1-9]|Output #|Stream mapping:)/.test(line)) inInput = false;
    if (!inInput) continue;
    result.duration ??= parseDuration(line);
    if (/Stream #0:\d+.*: Video:/.test(line) && !/attached pic/.test(line)) {
      if (!result.video) {
        const size = /, (\d{2,5})x(\d{2,5})[ ,]/.exec(line);
        if (size) result.size = [Number(size[1]), Number(size[2])];
      }
      result.video = true;
    }
    if (/Stream #0:\d+.*: Audio:/.test(line)) result.audio = true;
  }
  return result;
}

const INPUT_PROBLEMS = [
  /Invalid data found when processing input/,
  /could not find codec parameters/i,
  /moov atom not found/,
  /Error opening input/,
  /EBML header parsing failed/,
  /Format .* detected only with low score/,
  /does not contain any stream/,
  /Invalid argument/,
  /End of file/,
  /Stream map .* matches no streams/,
];

/**
 * The lines that say why ffmpeg failed: known input problems first, else the last few lines that
 * look like errors. Used to build a short, readable message.
 */
export function summariseFailure(lines: string[]): { inputProblem: boolean; summary: string } {
  const known = lines.filter((l) => INPUT_PROBLEMS.some((p) => p.test(l)));
  if (known.length) return { inputProblem: true, summary: unique(known).slice(-2).join("; ") };
  const errors = lines.filter((l) => /error|invalid|failed|unable|cannot|not supported/i.test(l));
  const chosen = errors.length ? errors : lines;
  return { inputProblem: false, summary: unique(chosen).slice(-3).join("; ") || "no log output" };
}

function unique(lines: string[]): string[] {
  return [...new Set(lines.map((l) => l.trim()).filter(Boolean))];
}
