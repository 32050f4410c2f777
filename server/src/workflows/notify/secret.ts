/**
 * A workflow's notifySecret (the key its completion webhooks are signed with) is write-only and
 * sealed at rest, like trigger secrets (lib/secret-box.ts): params_json of workflows, versions,
 * runs and templates never holds it; each row keeps it sealed in notify_secret_sealed, and views
 * say only notifySecretSet. A workflow, its versions and its runs seal it for the workflow's id,
 * so saving a version, restoring one or starting a run copies the sealed value as it is (a run's
 * copy is the secret as it was when the run started); a template seals it for its own id. A
 * sealed value moved onto another workflow's row does not open.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workflow, workflowRun, workflowTemplate, workflowVersion, type DeliveryAttempt } from "../../db/schema";
import { deriveSecretKey, seal, unseal } from "../../lib/secret-box";
import { notifyParams } from "./deliveries";

const workflowContext = (workflowId: string) => `workflow-notify-secret:${workflowId}`;
const templateContext = (templateId: string) => `workflow-template-notify-secret:${templateId}`;

/** Seals and opens notify secrets with a key derived from the server secret (its own purpose). */
export class NotifySecrets {
  constructor(private readonly key: CryptoKey) {}

  static async fromServerSecret(serverSecret: string): Promise<NotifySecrets> {
    return new NotifySecrets(await deriveSecretKey(serverSecret, "workflow-notify-secrets"));
  }

  /** For the rows of one workflow: the workflow, its versions and its runs. */
  sealForWorkflow(workflowId: string, secret: string): Promise<string> {
    return seal(this.key, secret, workflowContext(workflowId));
  }

  openForWorkflow(workflowId: string, sealed: string): Promise<string | null> {
    return unseal(this.key, sealed, workflowContext(workflowId));
  }

  sealForTemplate(templateId: string, secret: string): Promise<string> {
    return seal(this.key, secret, templateContext(templateId));
  }
}

/**
 * A paramsJson as sent, split into what is stored (the same JSON without notifySecret; the text
 * as sent when it has none) and what it says of the secret: a string sets it, null removes it,
 * undefined says nothing (an update keeps the current one). An empty paramsJson removes it.
 * `raw` is assumed checked (checkParamsJson): a JSON object, or empty.
 */
export function splitNotifySecret(raw: string | null): { paramsJson: string | null; secret: string | null | undefined } {
  if (raw === null || raw === "") return { paramsJson: raw, secret: null };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { paramsJson: raw, secret: undefined };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, "notifySecret")) return { paramsJson: raw, secret: undefined };
  const { notifySecret, ...rest } = value as Record<string, unknown>;
  return { paramsJson: JSON.stringify(rest), secret: typeof notifySecret === "string" && notifySecret ? notifySecret : null };
}

/**
 * paramsJson as answers show it, and whether a secret is set. A row written by an older process
 * during a rolling upgrade may still hold the secret in params_json until the next start seals
 * it: it is taken out here too, so no answer ever carries it.
 */
export function shownParams(paramsJson: string | null, sealed: string | null | undefined): { paramsJson: string | null; notifySecretSet: boolean } {
  if (!paramsJson?.includes("notifySecret")) return { paramsJson, notifySecretSet: Boolean(sealed) };
  const split = splitNotifySecret(paramsJson);
  return { paramsJson: split.paramsJson, notifySecretSet: Boolean(sealed) || Boolean(split.secret) };
}

/**
 * The secret a run's completion webhook is signed with: null when the run has none; `failed`
 * when one is sealed but does not open (the server secret, BETTER_AUTH_SECRET, changed since),
 * so the delivery is not sent unsigned. Null also when the run is gone.
 */
export async function runSigningSecret(db: Db, secrets: NotifySecrets, runId: string): Promise<{ secret: string | null } | { failed: DeliveryAttempt } | null> {
  const [run] = await db
    .select({ workflowId: workflowRun.workflowId, paramsJson: workflowRun.paramsJson, sealed: workflowRun.notifySecretSealed })
    .from(workflowRun)
    .where(eq(workflowRun.id, runId));
  if (!run) return null;
  if (run.sealed) {
    const secret = await secrets.openForWorkflow(run.workflowId, run.sealed);
    if (secret) return { secret };
    const error = "the workflow's notifySecret could not be opened (was the server secret, BETTER_AUTH_SECRET, changed?): set notifySecret again";
    return { failed: { at: new Date().toISOString(), outcome: "error", statusCode: null, error, durationMs: 0 } };
  }
  // A run an older process started during a rolling upgrade: the secret is still in its params.
  return { secret: notifyParams(run.paramsJson).secret };
}

/** The tables whose params_json may hold a notifySecret written before migration 0010, with what seals it. */
const TABLES = [
  { table: workflow, context: workflow.id, forTemplate: false },
  { table: workflowVersion, context: workflowVersion.workflowId, forTemplate: false },
  { table: workflowRun, context: workflowRun.workflowId, forTemplate: false },
  { table: workflowTemplate, context: workflowTemplate.id, forTemplate: true },
] as const;

/**
 * Seals every notifySecret still in plain text in params_json (rows from before migration 0010,
 * or written by an older process during a rolling upgrade) and takes it out of params_json.
 * Runs at every start, after the migrations (boot.ts); idempotent: the partial indexes of 0010
 * make the search read only such rows, and each row is rewritten only if its params_json is
 * still what was read, so processes starting together seal each row once. Returns the rows fixed.
 */
export async function sealPlaintextNotifySecrets(db: Db, secrets: NotifySecrets): Promise<number> {
  let fixed = 0;
  for (const t of TABLES) {
    const { table } = t;
    // The pattern is a literal, as in the partial index's predicate, so the planner can use the index.
    const rows = await db
      .select({ id: table.id, context: t.context, paramsJson: table.paramsJson, sealed: table.notifySecretSealed })
      .from(table)
      .where(sql`${table.paramsJson} LIKE '%notifySecret%'`);
    for (const row of rows) {
      const split = splitNotifySecret(row.paramsJson);
      if (split.secret === undefined) continue;
      const sealed = split.secret ? await (t.forTemplate ? secrets.sealForTemplate(row.context, split.secret) : secrets.sealForWorkflow(row.context, split.secret)) : row.sealed;
      const done = await db
        .update(table)
        .set({ paramsJson: split.paramsJson, notifySecretSealed: sealed })
        .where(and(eq(table.id, row.id), eq(table.paramsJson, row.paramsJson!)))
        .returning({ id: table.id });
      fixed += done.length;
    }
  }
  return fixed;
}
