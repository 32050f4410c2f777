/**
 * `notify.email`: the owner's short message at a run's end (spec "Events" 3), sent through
 * nodemailer with a non-pooled SMTP transport built from `email.smtp_url` for each attempt (one
 * message, one connection; nothing idles between runs). The switch and the URL are read again
 * at send time: switched off or unset since the run ended, the delivery is skipped. Failed
 * attempts are retried by the queue like webhooks.
 */
import nodemailer from "nodemailer";
import type { DeliveryAttempt } from "../../db/schema";
import type { ControlHandler } from "../../queue/registry";
import { attemptFailed, deliveryHandler, type NotifyDeps } from "./retry";
import { recordAttempt } from "./deliveries";

/**
 * Transport options from the admin's URL (`smtp://user:pass@host:587`, `smtps://...:465`). A
 * `from` query parameter sets the sender (default no-reply@ the PUBLIC_URL host); `pool` is
 * dropped so the transport is never pooled.
 */
export function smtpOptions(smtpUrl: string, publicUrl: string, timeoutMs: number): { transport: { url: string; connectionTimeout: number; greetingTimeout: number; socketTimeout: number }; from: string } {
  const url = new URL(smtpUrl);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw new Error("email.smtp_url must be an smtp:// or smtps:// URL");
  const from = url.searchParams.get("from") || defaultSender(publicUrl);
  url.searchParams.delete("from");
  url.searchParams.delete("pool");
  return { transport: { url: url.href, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs }, from };
}

function defaultSender(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  // An IP literal or a single label is no mail domain.
  const domain = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host) && !/^[\d.]+$/.test(host) ? host : "localhost";
  return `Vektor <no-reply@${domain}>`;
}

/** Sends one message and says what it gave; never throws. */
export async function sendEmail(smtpUrl: string, publicUrl: string, timeoutMs: number, to: string, message: { subject: string; text: string }): Promise<DeliveryAttempt> {
  const started = Date.now();
  const result = (outcome: DeliveryAttempt["outcome"], error: string | null): DeliveryAttempt => ({ at: new Date(started).toISOString(), outcome, statusCode: null, error, durationMs: Date.now() - started });
  let transporter: ReturnType<typeof nodemailer.createTransport> | null = null;
  try {
    const opts = smtpOptions(smtpUrl, publicUrl, timeoutMs);
    transporter = nodemailer.createTransport(opts.transport);
    await transporter.sendMail({ from: opts.from, to, subject: message.subject, text: message.text });
    return result("ok", null);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // The password is in the URL: never echo the URL itself.
    return result(e.code === "ETIMEDOUT" ? "timeout" : "error", `${e.code ? `${e.code}: ` : ""}${e.message ?? String(err)}`.replace(smtpUrl, "<email.smtp_url>"));
  } finally {
    transporter?.close();
  }
}

export function notifyEmailHandler(d: NotifyDeps & { publicUrl: string }): ControlHandler<"notify.email"> {
  return deliveryHandler("notify.email", d, async (row, tries) => {
    const smtpUrl = await d.config.get("email.smtp_url");
    if (!(await d.config.get("workflow.notify_email_enabled")) || !smtpUrl) {
      await recordAttempt(d.db, row.id, null, "skipped");
      return;
    }
    const attempt = await sendEmail(smtpUrl, d.publicUrl, d.timeoutMs, row.target, JSON.parse(row.body) as { subject: string; text: string });
    await recordAttempt(d.db, row.id, attempt, attempt.outcome === "ok" ? "succeeded" : "pending");
    // A failed attempt is logged by the queue, once, with whether it will be tried again.
    if (attempt.outcome !== "ok") return attemptFailed(row, attempt);
    d.log.info({ deliveryId: row.id, runId: row.runId, attempt: tries, outcome: attempt.outcome }, "completion e-mail attempt");
  });
}
