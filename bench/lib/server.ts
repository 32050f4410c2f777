/**
 * The real server for a benchmark, as a child process (`bun server/src/main.ts`) so its memory is
 * its own and can be read from /proc, apart from the benchmark's client. Loopback only.
 */
import { VektorClient } from "@vektor/shared/client";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "..", "..");
/** Unique per server, so a reused DATABASE_URL (a local Postgres) never refuses the sign-up. */
const ADMIN_EMAIL = `bench-admin-${crypto.randomUUID().slice(0, 8)}@example.test`;
const PASSWORD = "bench password 123";
const MiB = 1024 * 1024;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Peak resident memory of a process. The kernel keeps the high-water mark itself (VmHWM), so no
 * spike between polls is missed; writing "5" to clear_refs resets it, which gives a peak per
 * step. Where that reset is refused we fall back to polling VmRSS (every 50 ms) since the mark.
 */
export class RssMeter {
  private polled = 0;
  private readonly canReset: boolean;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly pid: number) {
    this.canReset = this.reset();
    this.timer = setInterval(() => this.poll(), 50);
  }

  private read(field: "VmRSS" | "VmHWM"): number {
    try {
      const m = readFileSync(`/proc/${this.pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0; // the process is gone
    }
  }

  private reset(): boolean {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, "5");
      return true;
    } catch {
      return false;
    }
  }

  private poll(): void {
    this.polled = Math.max(this.polled, this.read("VmRSS"));
  }

  /** Bytes of the highest RSS since the last mark() (or since start), then starts a new window. */
  mark(): number {
    this.poll();
    const peak = Math.max(this.polled, this.canReset ? this.read("VmHWM") : 0);
    this.polled = 0;
    if (this.canReset) this.reset();
    return peak;
  }

  /**
   * Waits (at most `maxMs`) until the server's RSS has stopped falling for 1.5 s, so garbage one
   * step leaves for a lazy GC is not counted as the next step's peak.
   */
  async quiesce(maxMs = 6000): Promise<void> {
    const deadline = Date.now() + maxMs;
    let last = this.current();
    for (let stable = 0; stable < 3 && Date.now() < deadline; ) {
      await Bun.sleep(500);
      const now = this.current();
      stable = now >= last - 4 * MiB ? stable + 1 : 0;
      last = Math.min(last, now);
    }
  }

  /** Resident bytes right now. */
  current(): number {
    return this.read("VmRSS");
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface BenchServer {
  url: string;
  pid: number;
  rss: RssMeter;
  /** Signs up the ADMIN_EMAILS account; `fetch` lets a benchmark time the client's requests. */
  admin(fetchImpl?: typeof fetch): Promise<VektorClient>;
  stop(): Promise<void>;
}

/**
 * Starts the server on a free loopback port with its own DATA_DIR and waits for /api/health.
 * `opts.port` restarts a server on the port it had (a client's session cookie keeps working);
 * `opts.ready: "banner"` returns as soon as main.ts prints its banner (the HTTP server listens and
 * the job runner has started) instead of at the first healthy answer, which a busy embedded
 * database can hold back for seconds while the runner works through a queue.
 * BENCH_SERVER_ENTRY swaps server/src/main.ts for another entry (e.g. one that patches a class
 * before importing main.ts), to A/B a server change without touching the server.
 * BENCH_SERVER_PROF=<dir> writes the server's CPU profile there when it stops (Bun's
 * --cpu-prof, also as grep-able markdown).
 */
export async function startServer(dataDir: string, extraEnv: Record<string, string> = {}, opts: { port?: number; ready?: "health" | "banner" } = {}): Promise<BenchServer> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const prof = process.env.BENCH_SERVER_PROF;
  const profArgs = prof ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${prof}`] : [];
  const proc = Bun.spawn([process.execPath, ...profArgs, process.env.BENCH_SERVER_ENTRY ?? "server/src/main.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: "warn", ADMIN_EMAILS: ADMIN_EMAIL, ...extraEnv },
    stdout: "pipe",
    stderr: "inherit",
  });
  let bannerSeen = false;
  forwardLogs(proc.stdout, () => (bannerSeen = true));
  const kill = () => proc.kill("SIGKILL");
  process.once("exit", kill); // never leave a server behind, even when the benchmark throws

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with code ${proc.exitCode} while starting`);
    if (Date.now() > deadline) throw new Error("the server did not answer /api/health within 60 s");
    if (opts.ready === "banner") {
      if (bannerSeen) break;
      await Bun.sleep(5);
      continue;
    }
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await Bun.sleep(100);
  }

  const rss = new RssMeter(proc.pid);
  return {
    url,
    pid: proc.pid,
    rss,
    async admin(fetchImpl) {
      const c = new VektorClient({ baseUrl: url, fetch: fetchImpl });
      await c.auth.signUp({ name: "bench", email: ADMIN_EMAIL, password: PASSWORD });
      return c;
    },
    async stop() {
      rss.stop();
      proc.kill("SIGTERM"); // main.ts stops gracefully and closes the database
      const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
      if (!done) kill();
      await proc.exited;
      process.off("exit", kill);
    },
  };
}

/** Calls `onLine` with each line of a child's output stream, as it arrives. */
export async function eachLine(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  }
}

/** Server log lines (LOG_LEVEL=warn: warnings and errors only) go to stderr; the banner is dropped. */
function forwardLogs(stream: ReadableStream<Uint8Array>, onBanner: () => void): Promise<void> {
  return eachLine(stream, (line) => {
    if (line.startsWith("Vektor is running")) onBanner();
    else if (line) process.stderr.write(`[server] ${line}\n`);
  });
}
