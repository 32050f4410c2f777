/**
 * A workflow's triggers (spec "Workflows", contract section 7): at most one per type, saved with
 * a checked config and a new secret on every PUT (the old one stops working at once), the secret
 * sealed at rest (lib/secret-box.ts) and shown only in the PUT answer. The inbound hook
 * (`hook`) verifies the signed form (HMAC-SHA-256 of "<timestamp>.<raw body>", constant time,
 * 300 s either way, each signature accepted once) or the legacy `{ secret }` form, then starts
 * a run charged like a manual one. Schedules and watches run through the queue
 * (workflows/triggers/*); this service is their way in from HTTP and from file uploads.
 */
import { fail, ServiceError } from "@vektor/shared/errors";
import { HookBody, TRIGGER_TYPES, WEBHOOK_TOLERANCE_SECONDS, type PutTriggerBody, type TriggerType } from "@vektor/shared/schemas/trigger";
import { parseJsonBody } from "@vektor/shared/json";
import { Value } from "@sinclair/typebox/value";
import { and, asc, eq } from "drizzle-orm";
import { createHash, timingSafeEqual } from "node:crypto";
import type { Db, Tx } from "../../db/client";
import { webhookSignature, workflow, workflowTrigger } from "../../db/schema";
import { newId, randomBase62 } from "../../lib/ids";
import { seal, unseal } from "../../lib/secret-box";
import { webhookHmac } from "../../lib/webhook-signature";
import type { Logger } from "../../log";
import { normalizeCron } from "./cron";
import { dbNow, DISPATCH_WINDOW_MS, dispatchSchedules } from "./schedule";
import { queueWatchFires } from "./watch";
import type { WorkflowRuns } from "./start";
import type { Settings } from "../../config/keys";

const MAX_AFFIX = 255;
type TriggerRow = typeof workflowTrigger.$inferSelect;

export interface TriggerServiceDeps {
  db: Db;
  config: Settings;
  workflows: WorkflowRuns;
  log: Logger;
  /** AES-256-GCM key derived from the server secret (boot.ts): seals trigger secrets at rest. */
  secretKey: CryptoKey;
}

/** Who a webhook request speaks for, once its signature or secret checked out, and what it asks for. */
export interface HookCaller {
  /** The workflow's owner: the run is theirs and charged to them. */
  id: string;
  workflowId: string;
  fileIds: string[];
  /** Signed form: records the signature in the run's transaction, refusing a replay that raced this one. */
  spend?: (tx: Tx) => Promise<void>;
}

export function triggerView(t: TriggerRow) {
  return { id: t.id, workflowId: t.workflowId, type: t.type as TriggerType, config: t.config, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() };
}

/** The config a type takes, normalized, or VALIDATION_ERROR. */
export function checkTriggerConfig(type: string, raw: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!(TRIGGER_TYPES as readonly string[]).includes(type)) throw fail.validation(`Unknown trigger type "${type}"; expected one of ${TRIGGER_TYPES.join(", ")}`);
  const config = raw ?? {};
  const allowed = type === "schedule" ? ["cron"] : type === "watch" ? ["prefix", "suffix"] : [];
  const extra = Object.keys(config).filter((k) => !allowed.includes(k));
  if (extra.length) throw fail.validation(`A ${type} trigger's config takes ${allowed.length ? allowed.join(", ") : "no keys"}; unknown: ${extra.join(", ")}`);
  if (type === "schedule") return { cron: normalizeCron(config.cron) };
  if (type === "watch") {
    const out: Record<string, string> = {};
    for (const k of ["prefix", "suffix"] as const) {
      const v = config[k];
      if (v === undefined || v === null || v === "") continue;
      if (typeof v !== "string" || v.length > MAX_AFFIX) throw fail.validation(`config.${k} must be a string of at most ${MAX_AFFIX} characters`);
      out[k] = v;
    }
    if (!out.prefix && !out.suffix) throw fail.validation("A watch trigger needs config.prefix and/or config.suffix (e.g. { \"suffix\": \".pdf\" })");
    return out;
  }
  return {};
}

/** What seals a trigger's secret: one trigger per (workflow, type), so a sealed value only opens on its own row. */
const sealContext = (workflowId: string, type: string) => `workflow-trigger:${workflowId}:${type}`;

const sha256 = (s: string | Uint8Array) => createHash("sha256").update(s).digest();

export class TriggerService {
  constructor(private readonly d: TriggerServiceDeps) {}

  async list(userId: string, workflowId: string) {
    const wf = await this.d.workflows.owned(userId, workflowId);
    const rows = await this.d.db.select().from(workflowTrigger).where(eq(workflowTrigger.workflowId, wf.id)).orderBy(asc(workflowTrigger.createdAt), asc(workflowTrigger.type));
    return rows.map(triggerView);
  }

  /** Creates or replaces the trigger of `type` (same id on replace); a new secret every time. */
  async put(userId: string, workflowId: string, body: PutTriggerBody): Promise<{ id: string; secret: string }> {
    const wf = await this.d.workflows.owned(userId, workflowId);
    const config = checkTriggerConfig(body.type, body.config);
    const secret = `whs_${randomBase62(40)}`;
    const secretSealed = await seal(this.d.secretKey, secret, sealContext(wf.id, body.type));
    const [row] = await this.d.db
      .insert(workflowTrigger)
      .values({ id: newId("trg"), workflowId: wf.id, type: body.type, config, secretSealed })
      .onConflictDoUpdate({ target: [workflowTrigger.workflowId, workflowTrigger.type], set: { config, secretSealed, updatedAt: new Date() } })
      .returning({ id: workflowTrigger.id });
    return { id: row.id, secret };
  }

  async remove(userId: string, workflowId: string, triggerId: string) {
    const wf = await this.d.workflows.owned(userId, workflowId);
    const gone = await this.d.db
      .delete(workflowTrigger)
      .where(and(eq(workflowTrigger.id, triggerId), eq(workflowTrigger.workflowId, wf.id)))
      .returning({ id: workflowTrigger.id });
    if (!gone.length) throw fail.notFound("Trigger");
    return { id: triggerId, deleted: true as const };
  }

  /**
   * The caller of POST /api/workflows/{id}/hook (the `webhook` auth kind): the workflow's owner,
   * as its webhook secret speaks for them. `raw` is the body exactly as received (the signature
   * covers these bytes). Order: unknown workflow 404, webhook switch off 403, no credentials 401
   * UNAUTHORIZED, then the signature or legacy secret (401 WEBHOOK_SIGNATURE_*), the body (400)
   * and a replay (401); the run's own checks (files, credits) come in `startHook`.
   */
  async verifyHook(workflowId: string, raw: Uint8Array, headers: Headers, nowMs = Date.now()): Promise<HookCaller> {
    const [wf] = await this.d.db.select({ id: workflow.id, userId: workflow.userId }).from(workflow).where(eq(workflow.id, workflowId));
    if (!wf) throw fail.notFound("Workflow");
    if (!(await this.d.config.get("workflow.webhook_enabled"))) throw new ServiceError("FEATURE_DISABLED", "Webhook triggers are turned off (workflow.webhook_enabled)");
    const tsHeader = headers.get("x-service-timestamp");
    const sigHeader = headers.get("x-service-signature");
    if (tsHeader === null && sigHeader === null) return this.legacyHook(wf, raw);

    if (!sigHeader) throw invalid("X-Service-Signature is missing (X-Service-Timestamp was sent)");
    const given = /^sha256=([0-9a-fA-F]{64})$/.exec(sigHeader.trim());
    if (!given) throw invalid("X-Service-Signature must be sha256=<64 hex digits>");
    const ts = tsHeader?.trim() ?? "";
    if (!/^\d{1,12}$/.test(ts)) throw invalid("X-Service-Timestamp must be the Unix time in seconds");
    const trigger = await this.webhookTrigger(wf.id);
    const secret = trigger ? await unseal(this.d.secretKey, trigger.secretSealed, sealContext(wf.id, "webhook")) : null;
    // Without a trigger, an HMAC under a random key keeps the refusal's timing like a wrong signature's.
    const expected = webhookHmac(secret ?? randomBase62(40), ts, raw);
    const signature = given[1].toLowerCase();
    if (!timingSafeEqual(expected, Buffer.from(signature, "hex")) || !trigger || !secret) throw invalid("The signature does not match this workflow's webhook secret and the body");
    const age = Math.floor(nowMs / 1000) - Number(ts);
    if (Math.abs(age) > WEBHOOK_TOLERANCE_SECONDS) {
      throw new ServiceError("WEBHOOK_SIGNATURE_EXPIRED", age > 0 ? `The signature is ${age} s old; at most ${WEBHOOK_TOLERANCE_SECONDS} s are accepted` : `The timestamp is ${-age} s in the future; at most ${WEBHOOK_TOLERANCE_SECONDS} s are accepted`);
    }
    const body = checkHookBody(parseJson(raw));
    if (body.secret !== undefined) throw fail.validation("A signed hook request carries no secret in its body");
    const replayed = () => invalid("This signed request was already accepted (replayed); sign each request with a new timestamp");
    const seen = await this.d.db
      .select({ s: webhookSignature.signature })
      .from(webhookSignature)
      .where(and(eq(webhookSignature.triggerId, trigger.id), eq(webhookSignature.signature, signature)));
    if (seen.length) throw replayed();
    const expiresAt = new Date((Number(ts) + WEBHOOK_TOLERANCE_SECONDS) * 1000);
    const spend = async (tx: Tx) => {
      const fresh = await tx.insert(webhookSignature).values({ triggerId: trigger.id, signature, expiresAt }).onConflictDoNothing().returning({ s: webhookSignature.signature });
      if (!fresh.length) throw replayed();
    };
    return { id: wf.userId, workflowId: wf.id, fileIds: body.fileIds ?? [], spend };
  }

  /** Starts the run a verified hook asks for, charged like a manual one; nothing is charged on a refusal. */
  startHook(h: HookCaller): Promise<{ runId: string; credits: number }> {
    // The signature is recorded in the run's transaction: a refused run (files, credits) does not use it up.
    return this.d.workflows.run({ id: h.id }, h.workflowId, h.fileIds, "webhook", null, h.spend);
  }

  /** The legacy form: no signature headers, the secret in the JSON body (checked before the rest of the body). */
  private async legacyHook(wf: { id: string; userId: string }, raw: Uint8Array): Promise<HookCaller> {
    const value = parseJson(raw);
    const given = typeof value === "object" && value !== null ? (value as { secret?: unknown }).secret : undefined;
    if (given === undefined || given === null || given === "") throw fail.unauthorized();
    if (typeof given !== "string") throw fail.validation("secret must be a string");
    const trigger = await this.webhookTrigger(wf.id);
    const secret = trigger ? await unseal(this.d.secretKey, trigger.secretSealed, sealContext(wf.id, "webhook")) : null;
    // Digests have one length whatever was sent, so the comparison takes the same time for every guess.
    const match = timingSafeEqual(sha256(given), sha256(secret ?? randomBase62(40)));
    if (!match || !secret) throw invalid("The secret does not match this workflow's webhook trigger");
    const body = checkHookBody(value);
    return { id: wf.userId, workflowId: wf.id, fileIds: body.fileIds ?? [] };
  }

  private async webhookTrigger(workflowId: string): Promise<TriggerRow | null> {
    const [t] = await this.d.db.select().from(workflowTrigger).where(and(eq(workflowTrigger.workflowId, workflowId), eq(workflowTrigger.type, "webhook")));
    return t ?? null;
  }

  /**
   * Runs the schedule dispatcher once for [now, now + 5 min) (default now: the database clock), as
   * of `now`: a fire time at `now` starts at once even when `now` is ahead of the clock; see
   * workflows/triggers/schedule.ts.
   */
  async dispatch(now?: Date) {
    const start = now ?? (await dbNow(this.d.db));
    return dispatchSchedules(this.d, start, new Date(start.getTime() + DISPATCH_WINDOW_MS), start);
  }

  /** In the transaction that makes an upload UPLOADED: queue the owner's matching watch triggers. */
  onFileUploaded(tx: Tx, f: { id: string; userId: string; filename: string; jobId: string | null }): Promise<number> {
    return queueWatchFires(tx, f);
  }
}

function invalid(message: string): ServiceError {
  return new ServiceError("WEBHOOK_SIGNATURE_INVALID", message);
}

/** The body as JSON; an empty body is `{}`. */
function parseJson(raw: Uint8Array): unknown {
  const text = new TextDecoder().decode(raw);
  return text.trim() === "" ? {} : parseJsonBody(text);
}

/** The hook's JSON body: `{ fileIds?, secret? }`. */
function checkHookBody(value: unknown): HookBody {
  if (!Value.Check(HookBody, value)) {
    const first = Value.Errors(HookBody, value).First();
    throw fail.validation(`Invalid hook body${first ? ` at ${first.path || "/"}: ${first.message}` : ""}; expected { fileIds?: string[] } (and secret in the legacy form)`);
  }
  return value;
}
