/**
 * A workflow's run options (paramsJson) as the settings form edits them: `notifyUrl`, and
 * `notifySecret`, which is write-only. Servers that seal it answer `notifySecretSet` and never
 * the secret; older ones answered it inside paramsJson and replaced the whole paramsJson on save.
 * Both are handled: the secret is never shown, and an unchanged one is kept on either.
 */
import type { Workflow } from "@vektor/shared/schemas/workflow";

export interface RunOptions {
  /** paramsJson as read, without notifySecret. */
  base: Record<string, unknown>;
  notifyUrl: string;
  secretSet: boolean;
  /** An older server's secret, sent back unchanged so its whole-paramsJson replace keeps it. */
  legacySecret: string | null;
}

export interface RunOptionsDraft {
  notifyUrl: string;
  /** A new secret typed ("" = keep the one set). */
  secret: string;
  removeSecret: boolean;
}

export function readRunOptions(w: Pick<Workflow, "paramsJson"> & { notifySecretSet?: boolean }): RunOptions {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = w.paramsJson ? JSON.parse(w.paramsJson) : {};
    if (value && typeof value === "object" && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // Not an object: nothing to edit; saving writes a fresh one.
  }
  const { notifySecret, ...base } = parsed;
  const legacySecret = typeof notifySecret === "string" && notifySecret ? notifySecret : null;
  return { base, notifyUrl: typeof base.notifyUrl === "string" ? base.notifyUrl : "", secretSet: w.notifySecretSet ?? legacySecret !== null, legacySecret };
}

export const draftOf = (o: RunOptions): RunOptionsDraft => ({ notifyUrl: o.notifyUrl, secret: "", removeSecret: false });

export const isDraftChanged = (o: RunOptions, d: RunOptionsDraft) => d.notifyUrl.trim() !== o.notifyUrl || d.secret !== "" || d.removeSecret;

/** The paramsJson to save, or undefined when the options did not change (the server keeps them). */
export function runOptionsJson(o: RunOptions, d: RunOptionsDraft): string | undefined {
  if (!isDraftChanged(o, d)) return undefined;
  const { notifyUrl: _old, ...rest } = o.base;
  const out: Record<string, unknown> = { ...rest };
  if (d.notifyUrl.trim()) out.notifyUrl = d.notifyUrl.trim();
  // Removing: a sealing server takes null; an older one drops what the new paramsJson does not name.
  if (d.removeSecret) {
    if (!o.legacySecret) out.notifySecret = null;
  } else if (d.secret) out.notifySecret = d.secret;
  else if (o.legacySecret) out.notifySecret = o.legacySecret;
  return JSON.stringify(out);
}

/** The run options a template keeps: everything but the secret (a template is not the place for one). */
export function templateOptionsJson(o: RunOptions, d: RunOptionsDraft): string | undefined {
  const { notifyUrl: _old, ...rest } = o.base;
  const out = { ...rest, ...(d.notifyUrl.trim() ? { notifyUrl: d.notifyUrl.trim() } : {}) };
  return Object.keys(out).length ? JSON.stringify(out) : undefined;
}
