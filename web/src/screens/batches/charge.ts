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

/** The plan's limits on one batch: how many files, how many MB in all (MiB, as the server counts). */
export interface PlanLimits {
  maxFiles: number;
  maxSizeMb: number;
}

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${(bytes / MB).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;

/** Whether the balance and the plan's limits allow `files` files of `bytes` in all, in words. */
export function affordability(p: Pricing, files: number, bytes: number, balance: number, plan: PlanLimits): Affordability {
  const total = chargeOf(p, files);
  if (files > plan.maxFiles) return { ok: false, text: `Your plan takes at most ${plural(plan.maxFiles, "file")} in a batch; ${plural(files, "file")} chosen.` };
  if (bytes > plan.maxSizeMb * MB) return { ok: false, text: `Your plan takes at most ${plan.maxSizeMb.toLocaleString("en-US")} MB in a batch; ${inMb(bytes)} chosen.` };
  if (total > balance) return { ok: false, text: `Your balance is ${plural(balance, "credit")}, ${plural(total - balance, "credit")} short of this batch.` };
  if (files === 0) return { ok: false, text: `Your balance: ${plural(balance, "credit")}.` };
  return { ok: true, text: `Your balance: ${plural(balance, "credit")}; ${plural(balance - total, "credit")} left after this batch.` };
}
