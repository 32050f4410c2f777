/**
 * The documentation of triggers and completion notifications, written once and shown twice: in
 * GET /api/workflows/catalog (on the trigger.* nodes) and in the OpenAPI description (the hook
 * route, and the completion webhook under the document's `webhooks`).
 */
import { DELIVERY_HEADER, NotifyBody, NotifyFailureBody, NotifySuccessBody } from "@vektor/shared/schemas/notify";
import { HookBody, SIGNATURE_HEADER, TIMESTAMP_HEADER, WEBHOOK_TOLERANCE_SECONDS } from "@vektor/shared/schemas/trigger";
import type { HeaderDoc, NotificationDoc, TriggerDoc } from "@vektor/shared/schemas/trigger-docs";
import type { CatalogNode } from "@vektor/shared/schemas/workflow";
import { RunBody } from "@vektor/shared/schemas/workflow";
import { NOTIFY_ATTEMPTS } from "../notify/retry";

/** A TypeBox schema as plain JSON schema (its symbol keys dropped). */
const plain = (schema: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

const SIGNATURE = `sha256=<hex HMAC-SHA-256 of "<${TIMESTAMP_HEADER}>.<raw body>">`;

export const NOTIFY_DESCRIPTION = `When a run ends (succeeded, failed or cancelled) and its workflow's paramsJson has \`notifyUrl\`, the service POSTs JSON to that URL: \`{ runId, status, fileIds }\` on success (fileIds: the run's outputs), \`{ runId, status, error: { code, message } }\` on failure or cancel. Headers: \`Content-Type: application/json\`, \`${DELIVERY_HEADER}\` (one id per delivery, the same on every attempt: drop duplicates by it), and when the workflow has a \`notifySecret\` (set in paramsJson, write-only: stored sealed, never returned, shown as notifySecretSet; a run signs with the one set when it started), \`${TIMESTAMP_HEADER}\` (Unix seconds of this attempt) and \`${SIGNATURE_HEADER}: ${SIGNATURE}\` keyed with notifySecret: the inbound hook's scheme, so a receiver checks it the same way (within ${WEBHOOK_TOLERANCE_SECONDS} s). The URL and every redirect target (at most 5, followed with the same POST) pass the same address guard as import-url (private, loopback, link-local, CGNAT and metadata addresses refused unless in net.allow_hosts): a refused delivery is recorded as \`blocked\` and never sent nor retried. Each attempt has 10 s; anything but a 2xx is tried again with exponential back-off and jitter, ${NOTIFY_ATTEMPTS} attempts in all (about two hours). Every attempt (time, status code or error) is listed on the run as \`deliveries\` (GET /api/workflows/runs/{runId}); the run's own status never depends on them.`;

export const EMAIL_DESCRIPTION = "When the admin switch workflow.notify_email_enabled is on and email.smtp_url is set, the run's owner gets a short e-mail at the run's end: the workflow's name, the status (and error), and a link to the run. Sent over SMTP (one connection per message), retried like the webhook, listed on the run as a delivery with channel email.";

const deliveryHeaders: HeaderDoc[] = [
  { name: "Content-Type", required: true, description: "application/json" },
  { name: DELIVERY_HEADER, required: true, description: "the delivery's id, the same on every attempt (receivers drop duplicates by it)" },
  { name: TIMESTAMP_HEADER, required: false, description: "with notifySecret: Unix time in seconds of this attempt" },
  { name: SIGNATURE_HEADER, required: false, description: `with notifySecret: ${SIGNATURE} keyed with notifySecret` },
];

const hookHeaders: HeaderDoc[] = [
  { name: TIMESTAMP_HEADER, required: false, description: `signed form: Unix time in seconds; at most ${WEBHOOK_TOLERANCE_SECONDS} s old or in the future` },
  { name: SIGNATURE_HEADER, required: false, description: `signed form: ${SIGNATURE} keyed with the webhook trigger's secret; each signature is accepted once` },
  { name: "Content-Type", required: false, description: "application/json" },
];

const Started = { type: "object", properties: { runId: { type: "string" }, credits: { type: "integer" } }, required: ["runId", "credits"] };

export const TRIGGER_DOCS: Record<TriggerDoc["type"], TriggerDoc> = {
  manual: {
    type: "manual",
    summary: "Someone starts the run (editor, API, MCP) with files of theirs.",
    config: null,
    request: { method: "POST", url: "/api/workflows/{id}/run", headers: [], body: plain(RunBody), answer: Started, description: "Session cookie or API token. Charged: workflow.base_credits + workflow.per_step_credits x tool steps." },
  },
  watch: {
    type: "watch",
    summary: "A run starts with each of the owner's uploads whose file name matches prefix and/or suffix (case-insensitive), once per file, when it is confirmed or imported; outputs of jobs and runs never start one. Switch: workflow.watch_enabled.",
    config: { type: "object", properties: { prefix: { type: "string", maxLength: 255 }, suffix: { type: "string", maxLength: 255 } }, additionalProperties: false, description: "at least one of prefix, suffix" },
    request: null,
  },
  webhook: {
    type: "webhook",
    summary: "A third party starts the run without login, signed with the trigger's secret (or, legacy, the secret in the body). Switch: workflow.webhook_enabled.",
    config: { type: "object", properties: {}, additionalProperties: false },
    request: {
      method: "POST",
      url: "/api/workflows/{id}/hook",
      headers: hookHeaders,
      body: plain(HookBody),
      answer: Started,
      description: `Signed form: the signature covers the exact body bytes; a wrong one is 401 WEBHOOK_SIGNATURE_INVALID, one more than ${WEBHOOK_TOLERANCE_SECONDS} s off 401 WEBHOOK_SIGNATURE_EXPIRED, a replay 401 WEBHOOK_SIGNATURE_INVALID. Legacy form: no signature headers, body { secret, fileIds }. fileIds: the owner's UPLOADED files. Charged like a manual run.`,
    },
  },
  schedule: {
    type: "schedule",
    summary: "A run starts at each fire time of a 5-field cron expression read in UTC (any minute; a system job queues each fire time of the next 5 minutes). A scheduled run brings no files: source.upload params (fileIds, sinceLastRun with prefix/suffix) decide its inputs. Switch: workflow.schedule_enabled.",
    config: { type: "object", properties: { cron: { type: "string", description: "minute hour day-of-month month day-of-week, UTC" } }, required: ["cron"], additionalProperties: false },
    request: null,
  },
};

export const NOTIFICATION_DOCS: NotificationDoc[] = [
  { channel: "webhook", summary: NOTIFY_DESCRIPTION, request: { method: "POST", url: "paramsJson.notifyUrl", headers: deliveryHeaders, body: plain(NotifyBody), answer: { description: "any 2xx ends the delivery; anything else is retried" }, description: "Outbound completion webhook" } },
  { channel: "email", summary: EMAIL_DESCRIPTION, request: null },
];

/** Which trigger records start a run at each trigger node (a watch run starts like a manual one: with the files it was given). */
const NODE_TRIGGERS: Record<string, TriggerDoc["type"][]> = {
  "trigger.manual": ["manual", "watch"],
  "trigger.webhook": ["webhook"],
  "trigger.schedule": ["schedule"],
};

/** The catalog with the trigger.* nodes documenting their triggers and the run's notifications. */
export function withTriggerDocs(nodes: CatalogNode[]): CatalogNode[] {
  return nodes.map((n) => {
    const types = NODE_TRIGGERS[n.type];
    return types ? { ...n, triggers: types.map((t) => TRIGGER_DOCS[t]), notifications: NOTIFICATION_DOCS } : n;
  });
}

/** The OpenAPI 3.1 `webhooks`: the completion webhook a run sends to its notifyUrl. */
export function openapiWebhooks(): Record<string, unknown> {
  const headerParams = deliveryHeaders.map((h) => ({ name: h.name, in: "header", required: h.required, description: h.description, schema: { type: "string" } }));
  return {
    workflowRunCompleted: {
      post: {
        summary: "Run completion (sent to paramsJson.notifyUrl)",
        description: NOTIFY_DESCRIPTION,
        tags: ["Workflow runs"],
        parameters: headerParams,
        requestBody: {
          required: true,
          content: { "application/json": { schema: { oneOf: [plain(NotifySuccessBody), plain(NotifyFailureBody)] } } },
        },
        responses: { "2XX": { description: "Received: the delivery ends. Any other answer, a timeout (10 s) or a connection error is retried with back-off." } },
      },
    },
  };
}
