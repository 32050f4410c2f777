/**
 * Every service, built once at boot (see boot.ts). A consumer takes the part it uses
 * (`Pick<Services, ...>` or the services themselves), never the whole.
 */
import type { Auth } from "./auth/better-auth";
import type { CallerResolver } from "./auth/caller";
import type { Database } from "./db/client";
import type { Env } from "./env";
import type { Limiter } from "./http/rate-limit";
import type { Invalidations } from "./db/invalidations";
import type { ReadCache } from "./db/read-cache";
import type { Logger } from "./log";
import type { ConfigService } from "./config/service";
import type { TokenService } from "./auth/tokens";
import type { ObjectStore } from "./storage/types";
import type { UrlSigner } from "./lib/signer";
import type { ToolRunService } from "./modules/tool-runs/service";
import type { BatchService } from "./modules/batch/service";
import type { BatchEventHub } from "./modules/batch/events";
import type { RunEventHub } from "./modules/workflows/events";
import type { Engine } from "./workflows/engine";
import type { WorkflowService } from "./modules/workflows/service";
import type { JobHandlers } from "./queue/registry";
import type { TriggerService } from "./workflows/triggers/service";
import type { NotifySecrets } from "./workflows/notify/secret";
import type { FileService } from "./modules/files/service";
import type { BatchZips } from "./modules/batch/zip";
import type { Idempotency } from "./modules/tool-runs/idempotency";
import type { HeldJobs } from "./queue/held";
import type { JobEnds } from "./queue/ends";
import type { JobTrace } from "./lib/job-trace";

export interface Services {
  env: Env;
  log: Logger;
  database: Database;
  config: ConfigService;
  auth: Auth;
  callers: CallerResolver;
  tokens: TokenService;
  store: ObjectStore;
  limiter: Limiter;
  /** Cache invalidation in this process and, over NOTIFY, in the others on the same PostgreSQL. */
  changes: Invalidations;
  /** Hot reads (file lists, run details), dropped when their tables change (see read-cache.ts). */
  reads: ReadCache;
  signer: UrlSigner;
  jobs: ToolRunService;
  /** Uploads, downloads and retention of the caller's files (HTTP and the retention job share it). */
  files: FileService;
  batches: BatchService;
  /** A batch's ZIP of outputs, built once and kept in the store. */
  zips: BatchZips;
  /** Idempotency-Key of POST /api/tools/{slug}. */
  idempotency: Idempotency;
  /** The jobs this process runs: the runner holds them, cancels stop them at once. */
  held: HeldJobs;
  /** Tool jobs' ends, handed by the executor here to the requests of this process that wait for them. */
  ends: JobEnds;
  /** JOB_TRACE=1: each tool call's steps, timed for bench/tools (null when off). */
  trace: JobTrace | null;
  batchEvents: BatchEventHub;
  runEvents: RunEventHub;
  engine: Engine;
  workflows: WorkflowService;
  /** Webhook, schedule and watch triggers (secrets sealed with a key derived from the server secret). */
  triggers: TriggerService;
  /** Seals and opens workflows' notifySecrets (sealed at rest, never returned). */
  notifySecrets: NotifySecrets;
  /** One handler per job kind (checked at boot, in every role). */
  handlers: JobHandlers;
  startedAt: Date;
  /** Serving, or draining after SIGTERM (readiness answers 503 then). */
  lifecycle: { draining: boolean };
}
