/** Health (database and storage checks) and public status. */
import { ServiceError } from "@vektor/shared/errors";
import { Health, PublicStatus } from "@vektor/shared/schemas/system";
import { Elysia } from "elysia";
import { pingDatabase } from "../../db/client";
import { routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import type { Services } from "../../services";

async function timed(fn: () => Promise<void>) {
  const start = performance.now();
  try {
    await fn();
    return { ok: true, ms: Math.round(performance.now() - start) };
  } catch (e) {
    return { ok: false, ms: Math.round(performance.now() - start), error: e instanceof Error ? e.message : String(e) };
  }
}

export function systemModule(s: Services) {
  const { doc } = routeDocs(s.callers);
  return new Elysia()
    .get(
      "/api/health",
      async () => {
        const [database, storage] = await Promise.all([timed(() => pingDatabase(s.database.db)), timed(() => s.store.ping())]);
        if (!database.ok || !storage.ok) {
          const err = new ServiceError("INTERNAL", `Unhealthy: ${!database.ok ? "database" : "storage"} check failed`);
          err.statusOverride = 503;
          throw err;
        }
        return ok({ status: "ok", checks: { database, storage } });
      },
      doc({
        summary: "Health: database and storage round trips",
        description: "200 when both checks pass; 503 with the error envelope (code INTERNAL) when one fails.",
        tags: ["System"],
        auth: "public",
        data: Health,
      }),
    )
    .get(
      "/status",
      async () =>
        ok({
          service: "vektor",
          version: s.env.version,
          startedAt: s.startedAt.toISOString(),
          uptimeSeconds: Math.round((Date.now() - s.startedAt.getTime()) / 1000),
          role: s.env.role,
          database: s.database.kind,
          storage: s.store.kind,
          queueDepth: await s.jobs.depth(),
        }),
      doc({
        summary: "Public status",
        description: "queueDepth: jobs queued or running.",
        tags: ["System"],
        auth: "public",
        data: PublicStatus,
      }),
    );
}
