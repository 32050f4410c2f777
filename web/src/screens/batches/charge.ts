/**
 * The charge of a batch in words, before it is created: base + per file x N = total, from the
 * pricing the server publishes (GET /api/batch/settings), and what it leaves of the balance.
 */
import { plural } from "../../components/format";

export interface Pricing {
  baseCredits: number;
  perFileCredits: number;
}

/** What the server charges for `files` files (POST /api/batch takes exactly this). */
export const chargeOf = (p: Pricing, files: number) => p.baseCredits + p.perFileCredits * files;

/** "1 credit for the batch + 2 credits per file x 3 files = 7 credits." */
export function chargeText(p: Pricing, files: number): string {
  if (files === 0) return `A batch costs ${plural(p.baseCredits, "credit")} plus ${plural(p.perFileCredits, "credit")} per file. Choose files to see the total.`;
  return `${plural(p.baseCredits, "credit")} for the batch + ${plural(p.perFileCredits, "credit")} per file × ${plural(files, "file")} = ${plural(chargeOf(p, files), "credit")}.`;
}

export interface Affordability {
  /** True when the batch can be created as chosen. */
  ok: boolean;
  /** The balance, or why not, in one sentence. */
  text: string;
}

/** Whether the balance and the plan's file limit allow `files` files, in words. */
export function affordability(p: Pricing, files: number, balance: number, maxFiles: number): Affordability {
  const total = chargeOf(p, files);
  if (files > maxFiles) return { ok: false, text: `Your plan takes at most ${plural(maxFiles, "file")} in a batch; ${plural(files, "file")} chosen.` };
  if (total > balance) return { ok: false, text: `Your balance is ${plural(balance, "credit")}, ${plural(total - balance, "credit")} short of this batch.` };
  if (files === 0) return { ok: false, text: `Your balance: ${plural(balance, "credit")}.` };
  return { ok: true, text: `Your balance: ${plural(balance, "credit")}; ${plural(balance - total, "credit")} left after this batch.` };
}
