/**
 * A credit ledger entry in plain words, and where it came from: the server records a reason code
 * and a ref (the batch or workflow run charged or refunded; "admin:<id>" for an administrator's
 * adjustment, whose reason is the administrator's own text).
 */
import type { LedgerEntry } from "@vektor/shared/schemas/account";

/** Where an entry links to: a batch (opened on the Batches screen) or a workflow run. */
export type LedgerLink = { to: "/batches"; search: { open: string } } | { to: "/workflows/runs/$runId"; params: { runId: string } };

export interface LedgerWords {
  text: string;
  link: LedgerLink | null;
}

const toBatch = (id: string): LedgerLink => ({ to: "/batches", search: { open: id } });
const toRun = (id: string): LedgerLink => ({ to: "/workflows/runs/$runId", params: { runId: id } });

/** Each reason's words, with the batch's or workflow's name when the server still knows it. */
const KNOWN: Record<string, { text: (name: string | null) => string; link?: (ref: string) => LedgerLink }> = {
  batch: { text: (name) => (name ? `Charge for the batch “${name}”` : "Charge for a batch"), link: toBatch },
  batch_cancel_refund: { text: (name) => `Refund for the files of ${name ? `the batch “${name}”` : "a batch"} that never ran (cancelled)`, link: toBatch },
  workflow_run: { text: (name) => (name ? `Charge for a run of the workflow “${name}”` : "Charge for a workflow run"), link: toRun },
  workflow_cancel_refund: { text: (name) => `Refund for the steps of ${name ? `a run of the workflow “${name}”` : "a workflow run"} that never ran (cancelled)`, link: toRun },
  signup_grant: { text: () => "Credits every new account receives" },
};

export function ledgerWords(entry: Pick<LedgerEntry, "reason" | "ref"> & { refName?: string | null }): LedgerWords {
  const known = KNOWN[entry.reason];
  if (known) return { text: known.text(entry.refName ?? null), link: known.link && entry.ref ? known.link(entry.ref) : null };
  if (entry.ref?.startsWith("admin:")) return { text: `Changed by an administrator: ${entry.reason}`, link: null };
  return { text: entry.reason, link: null };
}
