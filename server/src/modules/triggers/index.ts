/**
 * Trigger routes (spec "Workflows": triggers and hook; "Authentication": webhook signing):
 * list, create-or-replace and delete a workflow's triggers (session or token), and the hook a
 * third party calls without login, whose raw body is read here (the signature covers its bytes).
 */
import { HookStarted, PutTriggerBody, PutTriggerResult, Trigger, TriggerDeleted, WEBHOOK_TOLERANCE_SECONDS } from "@vektor/shared/schemas/trigger";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import { jsonBody } from "../../http/core";
import { authMacro, hookMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import type { Services } from "../../services";
import type { TriggerService } from "../../workflows/triggers/service";

const Id = Type.String({ minLength: 1, maxLength: 100 });
const tags = ["Workflows"];

const TRIGGER_RULES =
  "Types: `webhook` (config `{}`; its secret signs POST /api/workflows/{id}/hook), `schedule` (config `{ cron }`: exactly 5 fields, minute hour day-of-month month day-of-week, read in UTC; `* * *`, `61 * * * *` or a 6-field form is 400; a system job queues each fire time of the next 5 minutes as a delayed job, so a schedule at any minute fires at that minute; a scheduled run brings no files: its source.upload params (fileIds, sinceLastRun with prefix/suffix) decide what it processes), `watch` (config `{ prefix?, suffix? }`, at least one non-empty: a run starts with each of the owner's uploads whose file name matches, case-insensitive, once per file, when it is confirmed or imported; outputs of jobs and runs never start one). Schedule and watch runs are charged like manual runs; when the owner lacks the credits the run is not started (nothing is recorded). The switches workflow.webhook_enabled, workflow.schedule_enabled and workflow.watch_enabled turn each kind off.";

const HOOK_DESCRIPTION = `Starts a run of the workflow without login, charged like a manual run (trigger \`webhook\`); answers \`{ runId, credits }\`.

**Signed form (preferred).** Headers \`X-Service-Timestamp: <Unix seconds>\` and \`X-Service-Signature: sha256=<hex HMAC-SHA-256 of "<X-Service-Timestamp>.<raw body>">\`, keyed with the secret of the workflow's webhook trigger (the \`secret\` of PUT /api/workflows/{id}/triggers). The signature covers the body's exact bytes. A timestamp more than ${WEBHOOK_TOLERANCE_SECONDS} s old or more than ${WEBHOOK_TOLERANCE_SECONDS} s in the future: 401 \`WEBHOOK_SIGNATURE_EXPIRED\`. A wrong signature, a body changed after signing, a missing or non-numeric timestamp, or the secret of a replaced or deleted trigger: 401 \`WEBHOOK_SIGNATURE_INVALID\`. Each signed request is accepted once: sending the same signature again is refused as replayed (401 \`WEBHOOK_SIGNATURE_INVALID\`); a request refused for another reason (files, credits) may be sent again.

**Legacy form.** No signature headers; the JSON body carries \`secret\` (compared in constant time) and \`fileIds\`. A wrong secret: 401 \`WEBHOOK_SIGNATURE_INVALID\`.

**Body** (JSON, at most 1 MiB): \`{ fileIds?: string[] }\` (signed) or \`{ secret, fileIds? }\` (legacy); \`fileIds\` (default none) must be files of the workflow's owner (404 otherwise) and UPLOADED (409). No credentials at all: 401 \`UNAUTHORIZED\`. Unknown workflow: 404. workflow.webhook_enabled off: 403 \`FEATURE_DISABLED\`. Not enough credits: 402. Nothing is charged on any refusal.`;

export function triggersModule(s: Pick<Services, "callers">, t: TriggerService) {
  const { doc, docJson } = routeDocs();
  const hookDoc = doc({
    summary: "Start a run from outside (webhook), signed or with the legacy secret",
    description: HOOK_DESCRIPTION,
    tags: ["Workflow runs"],
    auth: "webhook",
    errors: ["NOT_FOUND", "FEATURE_DISABLED", "INVALID_STATE", "INSUFFICIENT_CREDITS", "LIMIT_EXCEEDED", "PAYLOAD_TOO_LARGE"],
    data: HookStarted,
  });
  const hookDetail = {
    ...hookDoc.detail,
    requestBody: {
      required: false,
      content: {
        "application/json": {
          schema: {
            type: "object",
            additionalProperties: false,
            properties: {
              fileIds: { type: "array", items: { type: "string" }, maxItems: 1000, description: "the owner's UPLOADED files" },
              secret: { type: "string", description: "legacy form only: the webhook trigger's secret" },
            },
          },
        },
      },
    } satisfies OpenAPIV3.RequestBodyObject,
  };
  return new Elysia({ prefix: "/api/workflows" })
    .use(authMacro(s.callers))
    .use(hookMacro((id, raw, headers) => t.verifyHook(id, raw, headers)))
    .use(jsonBody)
    .get("/:id/triggers", async ({ caller, params }) => ok(await t.list(caller.id, params.id)), {
      params: Type.Object({ id: Id }),
      ...doc({ summary: "A workflow's triggers", description: `Never shows a secret. ${TRIGGER_RULES}`, tags, auth: "api", errors: ["NOT_FOUND"], data: Type.Array(Trigger) }),
    })
    .put("/:id/triggers", async ({ caller, params, body }) => ok(await t.put(caller.id, params.id, body)), {
      params: Type.Object({ id: Id }),
      ...docJson(PutTriggerBody, {
        summary: "Create or replace the trigger of a type; answers its new secret",
        description: `Body \`{ type, config }\`. A workflow has at most one trigger per type: a PUT for a type it has replaces that trigger's config (same id) and rotates its secret: the previous secret stops working at once. The secret is shown only in this answer (stored encrypted with a key derived from the server secret). An unknown type, an invalid config or unknown config keys: 400 VALIDATION_ERROR. Another user's workflow: 404. ${TRIGGER_RULES}`,
        tags,
        auth: "api",
        errors: ["NOT_FOUND"],
        data: PutTriggerResult,
      }),
    })
    .delete("/:id/triggers/:triggerId", async ({ caller, params }) => ok(await t.remove(caller.id, params.id, params.triggerId)), {
      params: Type.Object({ id: Id, triggerId: Id }),
      ...doc({ summary: "Delete a trigger", description: "Its secret stops working at once; its queued schedule or watch fires start nothing. Unknown trigger, or another user's workflow: 404.", tags, auth: "api", errors: ["NOT_FOUND"], data: TriggerDeleted }),
    })
    .post("/:id/hook", async ({ caller }) => ok(await t.startHook(caller)), {
      parse: "none",
      params: Type.Object({ id: Id }),
      // Documented, not constrained: a malformed value is the hook's 401, not a 400.
      headers: Type.Object({
        "x-service-timestamp": Type.Optional(Type.String({ description: `Signed form: Unix time in seconds when the request was signed; at most ${WEBHOOK_TOLERANCE_SECONDS} s off either way` })),
        "x-service-signature": Type.Optional(Type.String({ description: 'Signed form: sha256=<hex HMAC-SHA-256 of "<X-Service-Timestamp>.<raw body>"> keyed with the webhook trigger\'s secret' })),
      }),
      ...hookDoc,
      detail: hookDetail,
    });
}
