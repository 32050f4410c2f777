/**
 * Completion notifications (spec "Events" 2-3, contract section 7): what an outbound completion
 * webhook sends (headers and bodies), and the deliveries a run shows, each with its attempts.
 * One delivery per terminal moment of a run (a retried run that ends again gets a new one).
 */
import { Type } from "@sinclair/typebox";
import { ATTEMPT_OUTCOMES, DELIVERY_CHANNELS, DELIVERY_STATUSES, literals, TERMINAL_RUN_STATUSES } from "./vocab";

/** Same id on every attempt of one delivery, so a receiver can drop duplicates. */
export const DELIVERY_HEADER = "X-Service-Delivery";

const FileIds = Type.Array(Type.String(), { description: "the run's output files" });
const RunError = Type.Object({ code: Type.String({ description: "the run's error code (APPROVAL_REJECTED, APPROVAL_TIMEOUT, a step's code, ...; CANCELLED for a cancelled run)" }), message: Type.String() });

export const NotifySuccessBody = Type.Object(
  { runId: Type.String(), status: Type.Literal("succeeded"), fileIds: FileIds },
  { description: "POSTed to notifyUrl when a run succeeds" },
);
export type NotifySuccessBody = typeof NotifySuccessBody.static;

export const NotifyFailureBody = Type.Object(
  { runId: Type.String(), status: Type.Union([Type.Literal("failed"), Type.Literal("cancelled")]), error: RunError },
  { description: "POSTed to notifyUrl when a run fails or is cancelled" },
);
export type NotifyFailureBody = typeof NotifyFailureBody.static;

export const NotifyBody = Type.Union([NotifySuccessBody, NotifyFailureBody]);
export type NotifyBody = typeof NotifyBody.static;


export const DeliveryAttempt = Type.Object({
  at: Type.String({ format: "date-time", description: "when the attempt started" }),
  outcome: literals(ATTEMPT_OUTCOMES, {
    description: "ok: a 2xx (webhook) or the SMTP server took the message; http_error: another status; timeout: no answer within the time limit (10 s); error: DNS, connection or SMTP failure; blocked: the address guard refused the URL or a redirect target (never sent, not retried)",
  }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's HTTP status (webhook)" }),
  error: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Integer(),
});
export type DeliveryAttempt = typeof DeliveryAttempt.static;

export const Delivery = Type.Object({
  id: Type.String({ description: `sent as ${DELIVERY_HEADER} on every attempt of a webhook delivery` }),
  channel: literals(DELIVERY_CHANNELS, { description: "webhook: POST to paramsJson.notifyUrl; email: message to the owner (workflow.notify_email_enabled)" }),
  target: Type.String({ description: "the notifyUrl, or the owner's e-mail address" }),
  runStatus: literals(TERMINAL_RUN_STATUSES, { description: "the terminal status it reports" }),
  status: literals(DELIVERY_STATUSES, {
    description: "pending: not yet accepted, more attempts to come; succeeded; failed: every attempt failed; blocked: the address guard refused it; skipped: e-mail switched off or SMTP unset before it went",
  }),
  attempts: Type.Array(DeliveryAttempt),
  createdAt: Type.String({ format: "date-time", description: "the run's terminal moment" }),
  finishedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});
export type Delivery = typeof Delivery.static;
