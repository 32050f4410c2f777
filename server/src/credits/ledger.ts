/**
 * Credit balance changes. The balance lives on the user row and every change is a ledger row
 * written in the same transaction; a debit is one conditional UPDATE, so two concurrent
 * charges can never take the balance below zero.
 */
import { ServiceError } from "@vektor/shared/errors";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { reusable } from "../db/reusable";
import { batch, creditLedger, user, workflow, workflowRun } from "../db/schema";
import { newId } from "../lib/ids";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Take `amount` credits inside an open transaction; throws INSUFFICIENT_CREDITS when short. */
export async function debit(tx: Tx | Db, userId: string, amount: number, reason: string, ref: string | null = null): Promise<number> {
  const rows = await takeCredits(tx, { userId, amount });
  if (rows.length === 0) throw new ServiceError("INSUFFICIENT_CREDITS", `This needs ${amount} credits and the balance is lower`);
  await ledgerRow(tx, { id: newId("cr"), userId, amount: -amount, reason, ref });
  return rows[0].credits;
}

/** Add credits inside an open transaction. */
export async function credit(tx: Tx | Db, userId: string, amount: number, reason: string, ref: string | null = null): Promise<number> {
  const rows = await addCredits(tx, { userId, amount });
  await ledgerRow(tx, { id: newId("cr"), userId, amount, reason, ref });
  return rows[0]?.credits ?? 0;
}

// Built once (db/reusable.ts): every workflow run and batch is charged with them.
const p = sql.placeholder;
const takeCredits = reusable((db) =>
  db
    .update(user)
    .set({ credits: sql`${user.credits} - ${p("amount")}::int` })
    .where(and(eq(user.id, p("userId")), gte(user.credits, p("amount"))))
    .returning({ credits: user.credits }),
);
const addCredits = reusable((db) =>
  db
    .update(user)
    .set({ credits: sql`${user.credits} + ${p("amount")}::int` })
    .where(eq(user.id, p("userId")))
    .returning({ credits: user.credits }),
);
const ledgerRow = reusable((db) => db.insert(creditLedger).values({ id: p("id"), userId: p("userId"), amount: p("amount"), reason: p("reason"), ref: p("ref") }));

/** The sign-up grant is already on the new row (set before insert); this records it in the ledger. */
export async function recordGrant(db: Db, userId: string, amount: number, reason: string): Promise<void> {
  await db.insert(creditLedger).values({ id: newId("cr"), userId, amount, reason, ref: null });
}

/**
 * The newest `limit` entries, each with the current name of the batch or workflow run's workflow
 * it charged or refunded (null once that is gone, or for other entries), so a person reads
 * which one it was.
 */
export async function ledger(db: Db, userId: string, limit: number) {
  return db
    .select({
      id: creditLedger.id,
      amount: creditLedger.amount,
      reason: creditLedger.reason,
      ref: creditLedger.ref,
      refName: sql<string | null>`coalesce(${batch.name}, ${workflow.name})`,
      createdAt: creditLedger.createdAt,
    })
    .from(creditLedger)
    .leftJoin(batch, and(eq(batch.id, creditLedger.ref), eq(batch.userId, creditLedger.userId)))
    .leftJoin(workflowRun, and(eq(workflowRun.id, creditLedger.ref), eq(workflowRun.userId, creditLedger.userId)))
    .leftJoin(workflow, eq(workflow.id, workflowRun.workflowId))
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
    .limit(limit);
}
