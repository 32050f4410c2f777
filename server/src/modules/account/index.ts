/** GET /api/account and the credit ledger. */
import { Account, LedgerEntry } from "@vektor/shared/schemas/account";
import { ListQuery } from "@vektor/shared/schemas/file";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import { user } from "../../db/schema";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseLimit } from "../../http/query";
import type { Services } from "../../services";
import { ledger } from "../../credits/ledger";

export function accountModule(s: Pick<Services, "callers" | "database">) {
  const { doc } = routeDocs();
  const db = s.database.db;
  return new Elysia({ prefix: "/api/account" })
    .use(authMacro(s.callers))
    .get(
      "",
      async ({ caller }) => {
        const [row] = await db.select({ credits: user.credits }).from(user).where(eq(user.id, caller.id));
        return ok({ id: caller.id, email: caller.email, name: caller.name, role: caller.role, plan: caller.plan, credits: row?.credits ?? 0 });
      },
      doc({ summary: "The signed-in account", tags: ["Account"], auth: "api", data: Account }),
    )
    .get(
      "/credits",
      async ({ caller, query }) => {
        const rows = await ledger(db, caller.id, parseLimit(query.limit, 100, 1000));
        return ok(rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })));
      },
      { query: ListQuery, ...doc({ summary: "Credit ledger, newest first", tags: ["Account"], auth: "api", data: Type.Array(LedgerEntry) }) },
    );
}
