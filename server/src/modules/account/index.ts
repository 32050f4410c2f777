/** GET /api/account, the credit ledger, the account's sessions, its deletion, and an admin's password reset. */
import { Account, AccountDeleted, DeleteAccountBody, LedgerEntry, PasswordSet, SessionInfo, SessionsRevoked, SetPasswordBody } from "@vektor/shared/schemas/account";
import { ListQuery } from "@vektor/shared/schemas/file";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import { user } from "../../db/schema";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseLimit } from "../../http/query";
import type { Services } from "../../services";
import { ledger } from "../../credits/ledger";
import { AccountService } from "./account-service";

const IdParam = Type.Object({ id: Type.String({ maxLength: 100 }) });

export function accountModule(s: Pick<Services, "callers" | "database" | "auth" | "store" | "log">) {
  const { doc, docJson } = routeDocs();
  const db = s.database.db;
  const accounts = new AccountService({ db, auth: s.auth, store: s.store, log: s.log });
  const mine = new Elysia({ prefix: "/api/account" })
    .use(jsonBody)
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
    )
    .get(
      "/sessions",
      async ({ caller, request }) => ok(await accounts.sessions(caller.id, (await accounts.currentSession(request.headers))?.id ?? null)),
      doc({ summary: "The account's signed-in sessions", description: "Most recently used first; `current` marks this request's session. Tokens are never shown.", tags: ["Account"], auth: "session", data: Type.Array(SessionInfo) }),
    )
    .post(
      "/sessions/revoke-others",
      async ({ caller, request }) => ok({ revoked: await accounts.revokeOthers(caller.id, (await accounts.currentSession(request.headers))?.id ?? null) }),
      doc({ summary: "Sign out every other session of the account", tags: ["Account"], auth: "session", data: SessionsRevoked }),
    )
    .delete(
      "/sessions/:id",
      async ({ caller, params }) => {
        await accounts.revoke(caller.id, params.id);
        return ok({ revoked: 1 });
      },
      { params: IdParam, ...doc({ summary: "Sign out one session of the account", tags: ["Account"], auth: "session", errors: ["NOT_FOUND"], data: SessionsRevoked }) },
    )
    .delete(
      "",
      async ({ caller, body }) => ok({ deleted: true, ...(await accounts.delete(caller.id, body.password)) }),
      docJson(DeleteAccountBody, {
        summary: "Delete the account",
        description: "Needs the account's password. Deletes its files (stored objects too), jobs, batches, workflows, API tokens and sessions; the credit ledger is kept for the audit, no longer linked to anyone.",
        tags: ["Account"],
        auth: "session",
        data: AccountDeleted,
      }),
    );
  const admin = new Elysia({ prefix: "/api/admin/users" })
    .use(jsonBody)
    .use(authMacro(s.callers))
    .post(
      "/:id/password",
      async ({ caller, params, body }) => {
        await accounts.setPassword(caller.id, params.id, body.newPassword);
        return ok({ userId: params.id, sessionsRevoked: true });
      },
      {
        params: IdParam,
        ...docJson(SetPasswordBody, {
          summary: "Set a user's new password (admin)",
          description: "For a server without SMTP, where the user cannot reset it by e-mail. The same password rules apply; every session of the user ends.",
          tags: ["Admin"],
          auth: "admin",
          errors: ["NOT_FOUND"],
          data: PasswordSet,
        }),
      },
    );
  return new Elysia().use(mine).use(admin);
}
