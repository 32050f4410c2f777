/**
 * Builds the services from the environment and starts (or stops) the HTTP server. Used by
 * main.ts and by the integration tests, so tests run the same wiring as production.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAuth } from "./auth/better-auth";
import { CallerResolver } from "./auth/caller";
import { createApp, type App } from "./app";
import { openDatabase } from "./db/client";
import { ensureDataDirs, type Env } from "./env";
import { RateLimiter, SharedRateLimiter } from "./http/rate-limit";
import { CredentialCache } from "./auth/credential-cache";
import { Invalidations } from "./db/invalidations";
import { ReadCache } from "./db/read-cache";
import { randomBase62 } from "./lib/ids";
import { UrlSigner } from "./lib/signer";
import { createLogger } from "./log";
import { ConfigService } from "./config/service";
import { TokenService } from "./auth/tokens";
import { ToolRunService } from "./modules/tool-runs/service";
import { BatchService } from "./modules/batch/service";
import { BatchEventHub } from "./modules/batch/events";
import { RUN_EVENT_POLL_FACTOR, RUN_EVENT_TABLES, RunEventHub } from "./modules/workflows/events";
import { BatchZips } from "./modules/batch/zip";
import { FileService } from "./modules/files/service";
import { Idempotency } from "./modules/tool-runs/idempotency";
import { HeldJobs } from "./queue/held";
import { JobEnds } from "./queue/ends";
import { JobTrace } from "./lib/job-trace";
import { WorkerPool } from "./tools/pool";
import { toolLaneLimits, toolLaneLimitsNow } from "./tools/admission";
import { keepSweepingJobFolders } from "./tools/job-files";
import { ToolRun } from "./tools/tool-run";
import { JobRunner } from "./queue/runner";
import type { Services } from "./services";
import { jobHandlers } from "./job-handlers";
import { scheduleRetention } from "./modules/files/retention";
import { Engine } from "./workflows/engine";
import { WorkflowService } from "./modules/workflows/service";
import { TriggerService } from "./workflows/triggers/service";
import { deriveSecretKey } from "./lib/secret-box";
import { scheduleDispatch } from "./workflows/triggers/schedule";
import { queueNotifications } from "./workflows/notify/deliveries";
import { NotifySecrets, sealPlaintextNotifySecrets } from "./workflows/notify/secret";
import { createStore } from "./storage";
import { isLane } from "./queue/kinds";
import { warmUpToolCalls } from "./tools/warm-up";
import { warmUpRequests } from "./tools/warm-up-requests";

/** BETTER_AUTH_SECRET, or one generated at first start and kept under DATA_DIR. */
function authSecret(env: Env): string {
  if (env.authSecret) return env.authSecret;
  const path = join(env.dataDir, "auth-secret");
  if (!existsSync(path)) writeFileSync(path, randomBase62(48), { mode: 0o600 });
  return readFileSync(path, "utf8").trim();
}

export async function buildServices(env: Env): Promise<Services> {
  ensureDataDirs(env);
  const log = createLogger(env.logLevel);
  const database = await openDatabase(env);
  // ROLE=worker answers no request: its cached reads would go unread, and the table changes that
  // keep them fresh unheard (Invalidations' `tables`), so it keeps none.
  const servesHttp = env.role !== "worker";
  const changes = new Invalidations(database, servesHttp);
  await changes.start();
  const reads = new ReadCache(servesHttp ? env.readCacheMs : 0);
  changes.on("table", (table) => reads.changed(table));
  const secret = authSecret(env);
  const config = new ConfigService(database.db, changes, await deriveSecretKey(secret, "config-secrets"));
  const configSealed = await config.sealPlaintextSecrets();
  if (configSealed > 0) log.info({ keys: configSealed }, "sealed secret settings that were stored in plain text");
  // After the migrations and before anything reads them: notifySecrets still in plain text
  // (rows from before migration 0010, or from an older process) are sealed. Idempotent.
  const notifySecrets = await NotifySecrets.fromServerSecret(secret);
  const sealedNow = await sealPlaintextNotifySecrets(database.db, notifySecrets);
  if (sealedNow > 0) log.info({ rows: sealedNow }, "sealed notifySecrets that were stored in plain text");
  const credentials = new CredentialCache(env.authCacheMs);
  changes.on("user", (userId) => credentials.dropUser(userId));
  const accountChanged = (userId: string) => changes.publish("user", userId);
  const auth = createAuth({ db: database.db, config, baseUrl: env.publicUrl, secret, adminEmails: env.adminEmails, accountChanged });
  const tokens = new TokenService(database.db, changes);
  const batches = new BatchService(database.db, config, env.toolMaxInputBytes);
  const store = createStore({ dataDir: env.dataDir, s3: env.s3 ?? undefined });
  // The jobs this process runs: the runner holds them, and a cancel made here stops them at once.
  const held = new HeldJobs();
  // The tool jobs' ends, handed by the executor to the requests of this process that wait for them.
  const ends = new JobEnds();
  // Completion notifications (outbound webhook, e-mail) are queued where a run ends.
  const engine = new Engine(store, [queueNotifications(env.publicUrl, (key) => config.peek(key))], env.toolMaxInputBytes);
  const workflows = new WorkflowService(database.db, config, engine, notifySecrets, reads, held);
  const triggers = new TriggerService({ db: database.db, config, workflows, log, secretKey: await deriveSecretKey(secret, "workflow-trigger-secrets") });
  const jobs = new ToolRunService(database.db, config, held, env.toolMaxInputBytes, ends);
  const signer = new UrlSigner(`${secret}:urls`);
  // Run event streams read again when a run or step changes in any process; the poll is the fallback.
  const runEvents = new RunEventHub(database.db, env.jobPollMs * RUN_EVENT_POLL_FACTOR, log);
  changes.on("table", (table) => RUN_EVENT_TABLES.has(table) && runEvents.wake());
  const base = {
    env,
    log,
    database,
    config,
    auth,
    tokens,
    callers: new CallerResolver(auth, tokens, database.db, credentials),
    store,
    limiter: database.kind === "postgres" ? new SharedRateLimiter(database.db, log, env.rateLimitSyncMs) : new RateLimiter(),
    changes,
    reads,
    signer,
    jobs,
    files: new FileService({ database, reads, triggers, store, config, signer, env, jobs }),
    batches,
    zips: new BatchZips(database.db, store, batches),
    idempotency: new Idempotency(database.db),
    held,
    ends,
    trace: env.jobTrace ? new JobTrace() : null,
    batchEvents: new BatchEventHub(batches, env.jobPollMs, log),
    runEvents,
    startedAt: new Date(),
    lifecycle: { draining: false },
    engine,
    workflows,
    triggers,
    notifySecrets,
  };
  return { ...base, handlers: jobHandlers(base) };
}

export interface Running {
  app: App;
  runner: JobRunner | null;
  services: Services;
  url: string;
  /**
   * Graceful stop: readiness answers 503, event streams end with a reconnect hint, no job is
   * claimed and running ones get `graceMs` (SHUTDOWN_GRACE_MS) to finish before they are handed
   * back to the queue; meanwhile requests are still answered (a load balancer takes its time to
   * notice readiness). Then no new connection is accepted, in-flight requests finish, and the
   * database closes.
   */
  stop(graceMs?: number): Promise<void>;
}

/** The worker pool and the queue runner (tool and control lanes), unless this process is ROLE=api. */
async function startWorker(s: Services) {
  if (s.env.role === "api") return null;
  const pool = new WorkerPool(s.env.toolWorkers, s.log, { startupTimeoutMs: s.env.toolStartupTimeoutMs });
  const scratchDir = join(s.env.dataDir, "tmp");
  const toolRun = new ToolRun(s.database.db, s.store, pool, s.handlers.tool, { timeoutMs: s.env.toolTimeoutMs, maxInputBytes: s.env.toolMaxInputBytes, scratchDir, ends: s.ends, trace: s.trace });
  const stopSweeping = keepSweepingJobFolders(scratchDir, s.log);
  const runner = new JobRunner(
    s.database.db,
    s.log,
    { leaseMs: s.env.jobLeaseMs, pollMs: s.env.jobPollMs, toolLanes: pool.size, controlLanes: s.env.controlLanes, outboundLanes: s.env.outboundLanes },
    s.handlers,
    { "tool.run": toolRun },
    toolLaneLimits(s.config),
    s.held,
  );
  // The first sweep of a fresh queue; a no-op when another process already queued one.
  await scheduleRetention(s.database.db);
  await scheduleDispatch(s.database.db);
  // Every process, this one included, hears of a claimable job only once the transaction that
  // queued it has committed: a wake-up any earlier would claim nothing.
  const unlisten = await s.database.listen("vektor_jobs", (lane) => runner.poke(isLane(lane) ? lane : undefined));
  runner.start();
  // A tool job created here while a lane is free starts in it at once: a call's, and a workflow step's queued in a transition here.
  s.jobs.runHere(runner, toolRun);
  s.engine.runToolsHere(runner, toolLaneLimitsNow(s.config));
  return {
    runner,
    pool,
    /** Running jobs finish within `graceMs`, or are handed back to the queue; then the pool closes. */
    async stop(graceMs = s.env.shutdownGraceMs) {
      stopSweeping();
      await unlisten().catch(() => {});
      await runner.stop(graceMs);
      await pool.close();
    },
  };
}

/** ROLE=worker: the queue and retention, no HTTP; several can share one Postgres with the API. */
export async function startWorkerProcess(env: Env): Promise<{ services: Services; stop(): Promise<void> }> {
  const services = await buildServices(env);
  const worker = await startWorker(services);
  services.log.info({ workers: env.toolWorkers, database: services.database.kind }, "worker started");
  return {
    services,
    async stop() {
      services.lifecycle.draining = true;
      await worker?.stop();
      await services.changes.stop();
      await services.database.close();
    },
  };
}

/**
 * On PGlite, runs `calls` tool calls' statements (rolled back) before the server listens, so its
 * first calls are as fast as later ones (tools/warm-up.ts). A failure only costs that speed.
 */
async function warmUp(services: Services, calls: number): Promise<void> {
  if (services.database.kind !== "pglite" || calls === 0) return;
  const started = performance.now();
  try {
    const recorded = await warmUpToolCalls(services.database.db, calls);
    // The rounds' garbage goes now: left to the collector, a server at rest was 12-57 MB bigger
    // for it; collected, 12 MB (the compiled code).
    Bun.gc(true);
    services.log.info({ calls, recorded, ms: Math.round(performance.now() - started) }, "warmed up the database");
  } catch (err) {
    services.log.warn({ err }, "the database warm-up failed; the first tool calls will be slower");
  }
}

/**
 * On PGlite, with this process running tools, makes `calls` tool calls to itself through `app`
 * before the server listens (tools/warm-up-requests.ts). A failure only costs speed. With no
 * calls to make it still deletes what a warm-up cut short by a crash left behind.
 */
async function warmUpPath(app: App, services: Services, pool: WorkerPool | undefined, calls: number): Promise<void> {
  if (services.database.kind !== "pglite") return;
  const making = pool ? calls : 0;
  const started = performance.now();
  try {
    const succeeded = await warmUpRequests(app, services, making);
    if (!pool || making === 0) return;
    pool.recycleIdle();
    Bun.gc(true);
    services.log.info({ calls, succeeded, ms: Math.round(performance.now() - started) }, "warmed up the tool call path");
  } catch (err) {
    services.log.warn({ err }, "the tool call path's warm-up failed; the first tool calls will be slower");
  }
}

export async function startServer(env: Env): Promise<Running> {
  const services = await buildServices(env);
  await warmUp(services, env.warmUpCalls);
  const app = createApp(services);
  // Before listening: the warm-up's calls need this process's tool lanes.
  const worker = await startWorker(services);
  // A batch's event streams hear its items end (any process's), so its end is told when it happens.
  const unlistenBatches = await services.database.listen("vektor_batches", (batchId) => services.batchEvents.heard(batchId));
  await warmUpPath(app, services, worker?.pool, env.warmUpRequests);
  app.listen({ hostname: env.host, port: env.port, maxRequestBodySize: Number.MAX_SAFE_INTEGER, idleTimeout: 120 });
  services.limiter.start();
  services.log.info({ url: env.publicUrl, database: services.database.kind, storage: services.store.kind, role: env.role }, "listening");
  return {
    app,
    services,
    url: env.publicUrl,
    runner: worker?.runner ?? null,
    async stop(graceMs = env.shutdownGraceMs) {
      services.lifecycle.draining = true;
      services.batchEvents.close();
      await unlistenBatches().catch(() => {});
      await services.runEvents.close();
      await worker?.stop(graceMs);
      await app.stop(false);
      await services.limiter.stop();
      await services.changes.stop();
      await services.database.close();
    },
  };
}
