/**
 * Slow clients (issue 25): BENCH_SLOW_CLIENTS (3,000) connections each PUT a 4 KiB body to a
 * signed upload URL one byte every BENCH_SLOW_EVERY_MS (4,000) ms, against `npm start`'s server on
 * PGlite with REQUEST_BODY_TIMEOUT_MS=10000 and REQUEST_BODY_MIN_RATE=1024 (so each may take 14 s).
 * While they hang on, health and a signed-in list are timed from the same address; then the slow
 * clients' answers are counted by status.
 *
 *   columns   what, count / p50 / p99 ms of the others' requests while the slow clients hang on,
 *             and the slow clients' answers (408 expected for all)
 *   env       BENCH_SLOW_CLIENTS, BENCH_SLOW_EVERY_MS
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./lib/server";
import { printTable } from "./lib/table";

const CLIENTS = Number(process.env.BENCH_SLOW_CLIENTS ?? 3000);
const EVERY_MS = Number(process.env.BENCH_SLOW_EVERY_MS ?? 4000);
const BODY = 4096;
const work = mkdtempSync(join(tmpdir(), "vektor-bench-slow-"));
process.once("exit", () => rmSync(work, { recursive: true, force: true }));

const server = await startServer(work, { REQUEST_BODY_TIMEOUT_MS: "10000", REQUEST_BODY_MIN_RATE: "1024", TOOL_WORKERS: "0" });
const c = await server.admin();
await c.admin.setConfig("platform_configs", { "ratelimit.per_minute": 100_000 });

/** One slow client: the request head, then a byte every EVERY_MS; resolves to the status it was answered with (0: none). */
function slowClient(url: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    let answer = "";
    socket.write(`PUT ${u.pathname}${u.search} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-length: ${BODY}\r\n\r\nx`);
    const timer = setInterval(() => socket.writable && socket.write("x"), EVERY_MS);
    socket.on("data", (d) => (answer += d.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
    });
  });
}

async function timed(n: number, call: () => Promise<unknown>): Promise<{ ok: number; p50: number; p99: number }> {
  const ms: number[] = [];
  let ok = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    if (await call().then(() => true, () => false)) ok++;
    ms.push(performance.now() - t0);
    await Bun.sleep(20);
  }
  ms.sort((a, b) => a - b);
  return { ok, p50: ms[Math.floor(n / 2)], p99: ms[Math.min(n - 1, Math.floor(n * 0.99))] };
}

const urls: string[] = [];
for (let i = 0; i < CLIENTS; i += 100) {
  const batch = await Promise.all(Array.from({ length: Math.min(100, CLIENTS - i) }, (_, j) => c.files.presignUpload<{ uploadUrl: string }>({ filename: `s${i + j}.bin`, mime: "application/octet-stream", size: BODY })));
  urls.push(...batch.map((p) => p.uploadUrl));
}
const idleHealth = await timed(50, () => fetch(`${server.url}/api/health`).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(r.status))));
const answers = urls.map(slowClient);
await Bun.sleep(1000);
const health = await timed(100, () => fetch(`${server.url}/api/health`).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(r.status))));
const list = await timed(100, () => c.files.list({ limit: 20 }));
const statuses = await Promise.all(answers);
await server.stop();

const byStatus = new Map<number, number>();
for (const s of statuses) byStatus.set(s, (byStatus.get(s) ?? 0) + 1);
const row = (what: string, r: { ok: number; p50: number; p99: number }, n: number) => [what, `${r.ok}/${n}`, r.p50.toFixed(1), r.p99.toFixed(1)];
printTable(
  ["request", "answered ok", "p50 ms", "p99 ms"],
  [row("GET /api/health, no slow clients", idleHealth, 50), row(`GET /api/health, ${CLIENTS} slow clients`, health, 100), row(`GET /api/files (signed in), ${CLIENTS} slow clients`, list, 100)],
);
printTable(
  ["slow clients answered", "count"],
  [...byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => [s === 0 ? "no answer (closed)" : String(s), n]),
);
