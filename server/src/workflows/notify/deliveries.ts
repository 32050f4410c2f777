/**
 * Completion notifications (spec "Events" 2-3): at a run's terminal moment, in the transaction
 * that sets its status, one delivery row per channel (outbound webhook when the run's paramsJson
 * has a notifyUrl; e-mail to the owner when workflow.notify_email_enabled is on and
 * email.smtp_url is set) and one queue job that sends it (webhook.ts, email.ts). The row fixes
 * what every attempt sends and collects what each attempt gave; the run itself is never touched.
 */
import type { DeliveryAttempt, NotifyBody } from "@vektor/shared/schemas/notify";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import { delivery, setting, user, workflow } from "../../db/schema";
import { newId } from "../../lib/ids";
import { enqueue } from "../../queue/enqueue";
import { CONFIG_KEYS, type ConfigValues } from "../../config/keys";
import type { RunRow, TerminalHook } from "../engine";

export type DeliveryRow = typeof delivery.$inferSelect;

/** What a completion webhook POSTs: the outputs on success, the error otherwise. */
export function notifyBody(run: RunRow): NotifyBody {
  if (run.status === "succeeded") return { runId: run.id, status: "succeeded", fileIds: run.outputFileIds };
  const status = run.status === "cancelled" ? "cancelled" : "failed";
  const error = run.errorCode ? { code: run.errorCode, message: run.errorMessage ?? "" } : status === "cancelled" ? { code: "CANCELLED", message: "The run was cancelled" } : { code: "FAILED", message: "The run failed" };
  return { runId: run.id, status, error };
}

/**
 * The notifyUrl in a run's params (checked when the workflow was saved; anything else reads as
 * absent), and a notifySecret only where an older process left one in plain text: it is sealed
 * apart from params_json (see secret.ts).
 */
export function notifyParams(paramsJson: string | null): { url: string | null; secret: string | null } {
  if (!paramsJson) return { url: null, secret: null };
  try {
    const p = JSON.parse(paramsJson) as Record<string, unknown>;
    return { url: typeof p.notifyUrl === "string" && p.notifyUrl ? p.notifyUrl : null, secret: typeof p.notifySecret === "string" && p.notifySecret ? p.notifySecret : null };
  } catch {
    return { url: null, secret: null };
  }
}

/** What the terminal hook reads of the service's settings from memory: the copy's value while it is fresh, else undefined (ConfigService.peek). */
export type PeekSetting = <K extends EmailKey>(key: K) => ConfigValues[K] | undefined;
type EmailKey = "workflow.notify_email_enabled" | "email.smtp_url";

/**
 * The e-mail switch and SMTP URL: from the process's fresh copy of the settings when it has one
 * (every run's end asked the database, one round trip per run for a switch that is mostly off),
 * else read through the transaction: the hook runs inside the run's transaction, where a query on
 * another connection (the config service's) would wait for it forever on PGlite.
 */
async function emailSettings(tx: Tx, peek: PeekSetting | undefined): Promise<{ enabled: boolean; smtpUrl: string }> {
  const [enabled, smtpUrl] = [peek?.("workflow.notify_email_enabled"), peek?.("email.smtp_url")];
  if (enabled !== undefined && smtpUrl !== undefined) return { enabled, smtpUrl };
  const keys = ["workflow.notify_email_enabled", "email.smtp_url"] as const;
  const rows = await tx.select({ key: setting.key, value: setting.value }).from(setting).where(and(inArray(setting.group, ["workflow_configs", "platform_configs"]), inArray(setting.key, [...keys])));
  const value = (k: (typeof keys)[number]) => rows.find((r) => r.key === k)?.value ?? CONFIG_KEYS[k].default;
  return { enabled: value("workflow.notify_email_enabled") === true, smtpUrl: String(value("email.smtp_url") ?? "") };
}

/** The short message of a run's end: workflow, status, link. */
export function emailMessage(publicUrl: string, workflowName: string, run: RunRow): { subject: string; text: string } {
  const body = notifyBody(run);
  const lines = [`Workflow: ${workflowName}`, `Run: ${run.id}`, `Status: ${run.status}`];
  if ("error" in body) lines.push(`Error: ${body.error.code}: ${body.error.message}`);
  else lines.push(`Output files: ${body.fileIds.length}`);
  lines.push("", `Open the run: ${publicUrl}/workflows/runs/${run.id}`, `API: ${publicUrl}/api/workflows/runs/${run.id}`);
  return { subject: `Workflow run ${run.status}: ${workflowName}`, text: `${lines.join("\n")}\n` };
}

/** The terminal hook (boot.ts registers it): queues the run's notifications in the transaction that ends it. */
export function queueNotifications(publicUrl: string, peek?: PeekSetting): TerminalHook {
  return async (tx, run) => {
    const { url } = notifyParams(run.paramsJson);
    if (url) {
      const id = newId("dlv");
      await tx.insert(delivery).values({ id, runId: run.id, channel: "webhook", target: url, runStatus: run.status, body: JSON.stringify(notifyBody(run)), status: "pending" });
      await enqueue(tx, { kind: "notify.webhook", data: { deliveryId: id }, userId: run.userId, dedupeKey: `notify:${id}` });
    }
    const email = await emailSettings(tx, peek);
    if (!email.enabled || !email.smtpUrl) return;
    const [owner] = await tx.select({ email: user.email, workflowName: workflow.name }).from(user).innerJoin(workflow, eq(workflow.id, run.workflowId)).where(eq(user.id, run.userId));
    if (!owner) return;
    const id = newId("dlv");
    await tx.insert(delivery).values({ id, runId: run.id, channel: "email", target: owner.email, runStatus: run.status, body: JSON.stringify(emailMessage(publicUrl, owner.workflowName, run)), status: "pending" });
    await enqueue(tx, { kind: "notify.email", data: { deliveryId: id }, userId: run.userId, dedupeKey: `notify:${id}` });
  };
}

export async function loadDelivery(db: Db, id: string): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(delivery).where(eq(delivery.id, id));
  return row ?? null;
}

/** Appends an attempt and sets the status (a pending delivery only: a settled one stays as it is). */
export async function recordAttempt(db: Db | Tx, id: string, attempt: DeliveryAttempt | null, status: DeliveryRow["status"]): Promise<void> {
  const finishedAt = status === "pending" ? null : new Date();
  const attempts = attempt ? sql`${delivery.attempts} || ${JSON.stringify([attempt])}::jsonb` : delivery.attempts;
  await db.update(delivery).set({ attempts, status, finishedAt }).where(and(eq(delivery.id, id), eq(delivery.status, "pending")));
}

