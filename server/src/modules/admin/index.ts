/** Admin actions beyond configuration: credit grants, the retention run and the schedule dispatcher. */
import { fail } from "@vektor/shared/errors";
import { AdminCreditsBody, AdminCreditsResult, NowBody, RetentionResult } from "@vektor/shared/schemas/config";
import { DispatchResult } from "@vektor/shared/schemas/trigger";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import { auditLog, user } from "../../db/schema";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { newId } from "../../lib/ids";
import type { Services } from "../../services";
import { credit, debit } from "../../credits/ledger";
import type { FileService } from "../files/service";
import { runRetention } from "../files/retention";

function parseNow(raw: string | undefined): Date {
  if (!raw) return new Date();
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw fail.validation("now must be an ISO-8601 date-time");
  return at;
}

export function adminModule(s: Pick<Services, "callers" | "database" | "triggers" | "env">, files: FileService) {
  const { doc, docJson } = routeDocs();
  const db = s.database.db;
  return new Elysia({ prefix: "/api/admin" })
    .use(authMacro(s.callers))
    .use(jsonBody)
    .post(
      "/credits",
      async ({ caller, body }) => {
        const [target] = await db.select({ id: user.id }).from(user).where(eq(user.email, body.email.toLowerCase()));
        if (!target) throw fail.notFound("Account");
        const balance = await db.transaction(async (tx) => {
          const ref = `admin:${caller.id}`;
          const b = body.amount >= 0 ? await credit(tx, target.id, body.amount, body.reason, ref) : await debit(tx, target.id, -body.amount, body.reason, ref);
          await tx.insert(auditLog).values({ id: newId("aud"), actorId: caller.id, action: "credits.adjust", target: target.id, detail: { amount: body.amount, reason: body.reason } });
          return b;
        });
        return ok({ userId: target.id, email: body.email.toLowerCase(), amount: body.amount, credits: balance });
      },
      {
        ...docJson(AdminCreditsBody, { summary: "Grant (or debit, with a negative amount) credits",
          description: "A debit larger than the balance answers 402 INSUFFICIENT_CREDITS; balances never go negative.",
          tags: ["Admin"],
          auth: "admin",
          errors: ["NOT_FOUND", "INSUFFICIENT_CREDITS"],
          data: AdminCreditsResult,
        }),
      },
    )
    .post(
      "/system/retention",
      async ({ body }) => {
        return ok(await runRetention(files, db, parseNow(body?.now), s.env.jobHistoryDays));
      },
      {
        ...docJson(Type.Optional(NowBody), { summary: "Run the retention clean-up once, as of `now`",
          description: "Deletes uploads older than `retention.upload_hours` (never-confirmed ones included) and outputs older than `retention.output_hours`, bytes and records; on local storage also what a crash or an abandoned upload left behind (temp files, multipart folders untouched for 24 h as of `now`: `leftoversRemoved`). It also deletes ended jobs past their keeping (`deletedJobs`): internal jobs (workflow transitions, sweeps, dispatches, notifications) a day after they were queued, and the tool jobs of API calls and upload-and-run after JOB_HISTORY_DAYS (30 by default; 0 keeps them), so they leave GET /api/jobs then; batch items and workflow steps' tool jobs stay with their batch or run. The same job runs by itself every 10 minutes.",
          tags: ["Admin"],
          auth: "admin",
          data: RetentionResult,
        }),
      },
    )
    .post(
      "/system/dispatch-schedules",
      async ({ body }) => {
        return ok(await s.triggers.dispatch(body?.now ? parseNow(body.now) : undefined));
      },
      {
        ...docJson(Type.Optional(NowBody), { summary: "Run the schedule dispatcher once, as of `now`",
          description: "Queues every schedule trigger's fire times in [now, now + 5 min) (default now: the database clock), as of `now`: that instant is taken as the present. A fire time at or before `now` starts its run at once, even when `now` is ahead of the clock (e.g. the next 5-minute boundary: a `*/5` schedule starts within seconds, not when the clock gets there), and one the automatic dispatcher already queued for its minute is brought forward. A later fire time in the window stays a delayed job that starts its run when the clock reaches it. A fire time starts at most one run however often it is dispatched (here, by the 5-minute system job, or by several processes). Answers the window and the fire times this call queued or brought forward (those already queued for later, or started, are left out). workflow.schedule_enabled off: nothing is queued. The same job runs by itself every 5 minutes, each fire time at its exact minute.",
          tags: ["Admin"],
          auth: "admin",
          data: DispatchResult,
        }),
      },
    );
}
