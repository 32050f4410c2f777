/**
 * What every command needs: the client for the chosen server (with the saved credentials when
 * they are for that server), output in text or JSON, and the errors that map to exit codes.
 */
import { ApiError, VektorClient } from "@vektor/shared/client";
import { DEFAULT_URL, loadSettings, type Settings } from "./settings";

/** Exit codes: 0 success, 1 a failed job, run or call, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A mistake in the command line itself (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A job, batch or run that ended failed (exit 1 after its output). */
export class FailedWork extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface GlobalOptions {
  baseUrl?: string;
  json?: boolean;
}

export interface Context {
  client: VektorClient;
  baseUrl: string;
  settings: Settings;
  json: boolean;
  /** Prints the result: `data` as JSON with --json, else the text lines. */
  print: (data: unknown, text: () => string | string[]) => void;
  /** A line for the human on stderr (progress, hints); silent with --json. */
  note: (line: string) => void;
}

export function resolveBaseUrl(opts: GlobalOptions, settings: Settings): string {
  const raw = opts.baseUrl ?? process.env.VEKTOR_URL ?? settings.baseUrl ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`the server URL must be http(s): ${raw}`);
  return raw.replace(/\/+$/, "");
}

export async function context(opts: GlobalOptions): Promise<Context> {
  const settings = await loadSettings();
  const baseUrl = resolveBaseUrl(opts, settings);
  // Saved credentials go only to the server they were made for.
  const mine = settings.baseUrl === baseUrl;
  const client = new VektorClient({ baseUrl, token: mine ? settings.token : undefined, cookie: mine ? settings.cookie : undefined });
  const json = Boolean(opts.json);
  return {
    client,
    baseUrl,
    settings,
    json,
    print: (data, text) => {
      if (json) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      else {
        const lines = text();
        process.stdout.write(`${Array.isArray(lines) ? lines.join("\n") : lines}\n`);
      }
    },
    note: (line) => {
      if (!json) process.stderr.write(`${line}\n`);
    },
  };
}

/** The one line an error prints, and its exit code. */
export function describeError(err: unknown): { line: string; code: number } {
  if (err instanceof UsageError) return { line: `error: ${err.message}`, code: EXIT.usage };
  if (err instanceof FailedWork) return { line: `error: ${err.code}: ${err.message}`, code: EXIT.failed };
  if (err instanceof ApiError) return { line: `error: ${err.code}: ${err.message.replace(/\s+/g, " ")}`, code: EXIT.failed };
  if (err instanceof Error && err.name === "AbortError") return { line: "error: interrupted", code: 130 };
  const message = err instanceof Error ? err.message : String(err);
  return { line: `error: ${message.split("\n")[0]}`, code: EXIT.failed };
}
