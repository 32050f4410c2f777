/**
 * Environment variables, read once at boot. Every variable the service understands is here
 * (the README lists them); nothing else reads process.env.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { parseTrustProxy, type TrustProxy } from "./http/client-address";

export type Role = "all" | "api" | "worker";

export interface S3Env {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface Env {
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /** DATABASE_PREPARE=false: no prepared statements on PostgreSQL (a pooler in transaction mode that cannot keep them). */
  databasePrepare: boolean;
  /** DATABASE_POOL_MAX: PostgreSQL connections this process keeps at most (see WORKER_POOL_MAX). */
  databasePoolMax: number;
  /** PGlite's shared_buffers (a Postgres size such as "16MB"); every page of it stays resident. */
  pgliteSharedBuffers: string;
  s3: S3Env | null;
  adminEmails: string[];
  authSecret: string | null;
  role: Role;
  logLevel: string;
  version: string;
  /** Milliseconds a single import may take (connect to last byte). */
  importTimeoutMs: number;
  /** Tool workers in this process (0 with ROLE=api). */
  toolWorkers: number;
  toolTimeoutMs: number;
  /** Longest a tool worker may take to load a tool's engine before a run (not on the run's clock). */
  toolStartupTimeoutMs: number;
  toolMaxInputBytes: number;
  jobPollMs: number;
  jobLeaseMs: number;
  /** Days an ended tool job of an API call or upload-and-run is kept (queue/history.ts; 0: forever). */
  jobHistoryDays: number;
  /** On SIGTERM, how long running jobs may take to finish before they are handed back to the queue. */
  shutdownGraceMs: number;
  /** Short control jobs (workflow transitions, timeouts, sweeps) this process runs at once. */
  controlLanes: number;
  /** Jobs that call other servers (webhook deliveries, e-mail) run at once in this process. */
  outboundLanes: number;
  /** Comment heartbeat on event streams. */
  sseHeartbeatMs: number;
  /** How long POST /api/tools/{slug} waits for the job before answering 202 (a proxy with a shorter timeout wants less). */
  toolWaitMs: number;
  /** Time limit of one completion notification attempt (webhook POST or SMTP exchange). */
  notifyTimeoutMs: number;
  /** First back-off of a failed notification; doubled per attempt (with jitter), capped at 64x (at most 1 h). */
  notifyRetryBaseMs: number;
  /** How long a resolved session cookie or token is trusted without the database (0: never). */
  authCacheMs: number;
  /** How often rate limit counts are summed across processes (PostgreSQL). */
  rateLimitSyncMs: number;
  /** How long a cached list or run detail is kept at most (0: never cached). */
  readCacheMs: number;
  /** A request body may take this long, plus its length at `bodyMinBytesPerSecond` (then 408). */
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  /** Which proxies' X-Forwarded-For/-Proto/-Host are believed (none by default). */
  trustProxy: TrustProxy;
  /** JOB_TRACE=1: tool calls answer with a Server-Timing header of their job's steps (bench/tools reads it). */
  jobTrace: boolean;
  /** Tool calls' statements a PGlite server runs, rolled back, before it listens (tools/warm-up.ts; 0: none). */
  warmUpCalls: number;
  /** Tool calls a PGlite server that runs tools makes to itself through its app before it listens (tools/warm-up-requests.ts; 0: none). */
  warmUpRequests: number;
}

type Source = Record<string, string | undefined>;

function intVar(src: Source, name: string, fallback: number): number {
  const raw = src[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/**
 * A ROLE=worker process's statements are short, and those that find every connection busy are
 * pipelined on one; each connection is a PostgreSQL backend, and the pool hands statements to its
 * connections in turn, so every backend of it stays in use and none stays warm in the CPU's
 * caches. Measured on 2 cores (bench/workflows.ts, CPU per 5-step run, paired rounds): with 4
 * worker processes, 4 connections each cost about 6 % less than 10 (3 no better, 6 half as
 * much); with one, 3 % less. It also keeps many worker processes within PostgreSQL's
 * max_connections (100 by default).
 */
const WORKER_POOL_MAX = 4;
/** An API process answers many requests at once, each of which may hold a connection through a transaction. */
export const API_POOL_MAX = 10;

/** DATABASE_POOL_MAX: at least 2 (the migration at start-up holds one connection for its lock and runs on another). */
function poolMaxVar(src: Source, role: Role): number {
  const n = intVar(src, "DATABASE_POOL_MAX", role === "worker" ? WORKER_POOL_MAX : API_POOL_MAX);
  if (n < 2) throw new Error(`DATABASE_POOL_MAX must be at least 2, got "${src.DATABASE_POOL_MAX}"`);
  return n;
}

/** A Postgres memory size: digits and a unit (kB, MB, GB). */
function sizeVar(src: Source, name: string, fallback: string): string {
  const raw = src[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+(kB|MB|GB)$/.test(raw)) throw new Error(`${name} must be a size such as 16MB or 512kB, got "${raw}"`);
  return raw;
}

function s3FromEnv(src: Source): S3Env | null {
  if (!src.S3_ENDPOINT && !src.S3_BUCKET) return null;
  const need = ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
  const missing = need.filter((k) => !src[k]);
  if (missing.length) throw new Error(`S3 storage needs ${missing.join(", ")}`);
  return {
    endpoint: src.S3_ENDPOINT!,
    bucket: src.S3_BUCKET!,
    accessKeyId: src.S3_ACCESS_KEY_ID!,
    secretAccessKey: src.S3_SECRET_ACCESS_KEY!,
    region: src.S3_REGION || "us-east-1",
  };
}

export function readEnv(src: Source = process.env): Env {
  const host = src.HOST || "127.0.0.1";
  const port = intVar(src, "PORT", 8080);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const role = (src.ROLE || "all") as Role;
  if (!["all", "api", "worker"].includes(role)) throw new Error(`ROLE must be all, api or worker, got "${role}"`);
  return {
    host,
    port,
    publicUrl: (src.PUBLIC_URL || `http://${urlHost}:${port}`).replace(/\/+$/, ""),
    dataDir: resolve(src.DATA_DIR || "./.data"),
    databaseUrl: src.DATABASE_URL || null,
    databasePrepare: src.DATABASE_PREPARE !== "false",
    databasePoolMax: poolMaxVar(src, role),
    pgliteSharedBuffers: sizeVar(src, "PGLITE_SHARED_BUFFERS", "16MB"),
    s3: s3FromEnv(src),
    adminEmails: (src.ADMIN_EMAILS || "")
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    authSecret: src.BETTER_AUTH_SECRET || null,
    role,
    logLevel: src.LOG_LEVEL || "info",
    version: "1.0.0",
    importTimeoutMs: intVar(src, "IMPORT_TIMEOUT_MS", 30_000),
    toolWorkers: role === "api" ? 0 : intVar(src, "TOOL_WORKERS", navigator.hardwareConcurrency || 2),
    toolTimeoutMs: intVar(src, "TOOL_TIMEOUT_MS", 300_000),
    toolStartupTimeoutMs: intVar(src, "TOOL_STARTUP_TIMEOUT_MS", 120_000),
    toolMaxInputBytes: intVar(src, "TOOL_MAX_INPUT_MB", 1024) * 1024 * 1024,
    jobPollMs: intVar(src, "JOB_POLL_MS", 500),
    jobLeaseMs: intVar(src, "JOB_LEASE_MS", 30_000),
    jobHistoryDays: intVar(src, "JOB_HISTORY_DAYS", 30),
    shutdownGraceMs: intVar(src, "SHUTDOWN_GRACE_MS", 30_000),
    controlLanes: intVar(src, "JOB_CONTROL_LANES", 4),
    outboundLanes: intVar(src, "JOB_OUTBOUND_LANES", 2),
    sseHeartbeatMs: intVar(src, "SSE_HEARTBEAT_MS", 15_000),
    toolWaitMs: intVar(src, "TOOL_WAIT_MS", 60_000),
    notifyTimeoutMs: intVar(src, "NOTIFY_TIMEOUT_MS", 10_000),
    notifyRetryBaseMs: intVar(src, "NOTIFY_RETRY_BASE_MS", 30_000),
    // At most 2 s by the contract of revocation across processes; NOTIFY usually makes it instant.
    authCacheMs: Math.min(intVar(src, "AUTH_CACHE_MS", 1000), 2000),
    rateLimitSyncMs: intVar(src, "RATE_LIMIT_SYNC_MS", 200),
    readCacheMs: intVar(src, "READ_CACHE_MS", 1000),
    bodyTimeoutMs: intVar(src, "REQUEST_BODY_TIMEOUT_MS", 30_000),
    // 16 KiB/s: 128 kbit/s, slower than any working connection; a 16 MiB part gets 17 min more.
    bodyMinBytesPerSecond: Math.max(1, intVar(src, "REQUEST_BODY_MIN_RATE", 16_384)),
    trustProxy: parseTrustProxy(src.TRUST_PROXY),
    jobTrace: src.JOB_TRACE === "1",
    warmUpCalls: intVar(src, "WARM_UP_CALLS", 400),
    warmUpRequests: intVar(src, "WARM_UP_REQUESTS", 200),
  };
}

/** Create DATA_DIR and its sub-folders: PGlite refuses a directory that does not exist. */
export function ensureDataDirs(env: Env): void {
  for (const sub of ["", "db", "objects"]) mkdirSync(resolve(env.dataDir, sub), { recursive: true });
}
