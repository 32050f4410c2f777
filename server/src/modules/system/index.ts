/** Health (database and storage checks) and public status. */
import { ERROR_CATALOG, ServiceError } from "@vektor/shared/errors";
import { Health, PublicStatus, Ready } from "@vektor/shared/schemas/system";
import { Elysia } from "elysia";
import { pingDatabase } from "../../db/client";
import { routeDocs } from "../../http/docs";
import { diskFullIn, storeUnavailable } from "../../http/errors";
import { Cache } from "../../lib/cache";
import { ok } from "../../http/envelope";
import type { Services } from "../../services";

async function timed(fn: () => Promise<void>) {
  const start = performance.now();
  try {
    await fn();
    return { ok: true, ms: Math.round(performance.now() - start) };
  } catch (e) {
    return { ok: false, ms: Math.round(performance.now() - start), error: e instanceof Error ? e.message : String(e), diskFull: diskFullIn(e) !== null, unreachable: storeUnavailable(e) };
  }
}

/** Passing checks are reused this long; a failing one is rerun by the next request. */
const HEALTH_REUSE_MS = 1000;

type Checks = { database: Awaited<ReturnType<typeof timed>>; storage: Awaited<ReturnType<typeof timed>>; checkedAt: string };

/**
 * The database and storage checks, run once for all the requests that arrive while they run and
 * reused for a second when they pass: under a probe flood each request would otherwise add a
 * database round trip and a storage call.
 */
function healthChecks(s: Pick<Services, "database" | "store">) {
  const last = new Cache<Checks>(HEALTH_REUSE_MS);
  const run = async (): Promise<Checks> => {
    const [database, storage] = await Promise.all([timed(() => pingDatabase(s.database.db)), timed(() => s.store.ping())]);
    return { database, storage, checkedAt: new Date().toISOString() };
  };
  return () => last.get("", run, (c) => (c.database.ok && c.storage.ok ? {} : false));
}

/** 503 naming the failing check; STORAGE_FULL when its disk is full, so an operator knows what to fix. */
function unhealthy([name, check]: [string, { error?: string; diskFull?: boolean; unreachable?: boolean }]): ServiceError {
  const err = check.diskFull
    ? new ServiceError("STORAGE_FULL", `Unhealthy: ${name} check failed: its disk is full (${check.error}). ${ERROR_CATALOG.STORAGE_FULL.message}`)
    : check.unreachable
      ? new ServiceError("STORAGE_UNAVAILABLE", `Unhealthy: ${name} check failed: the object store cannot be reached (${check.error})`)
      : new ServiceError("INTERNAL", `Unhealthy: ${name} check failed: ${check.error}`);
  err.statusOverride = 503;
  return err;
}

export function systemModule(s: Pick<Services, "database" | "env" | "jobs" | "startedAt" | "store" | "lifecycle">) {
  const { doc } = routeDocs();
  const checks = healthChecks(s);
  return new Elysia()
    .get(
      "/api/health",
      async () => {
        const { database, storage, checkedAt } = await checks();
        if (!database.ok || !storage.ok) throw unhealthy(!database.ok ? ["database", database] : ["storage", storage]);
        return ok({ status: "ok", checks: { database, storage }, checkedAt });
      },
      doc({
        summary: "Health: database and storage round trips",
        description:
          "200 when both checks pass; 503 with the error envelope naming the failing check when one fails (code STORAGE_FULL when its disk is full, STORAGE_UNAVAILABLE when the object store cannot be reached, INTERNAL otherwise). Requests arriving while the checks run share them, and passing checks are reused for up to 1 s (checkedAt says when they ran); a failing check is rerun by the next request.",
        tags: ["System"],
        auth: "public",
        data: Health,
      }),
    )
    .get(
      "/api/ready",
      () => {
        // Only this process's own state: a load balancer stops sending it requests while it drains,
        // whatever the database does (health tells that).
        if (s.lifecycle.draining) throw new ServiceError("SHUTTING_DOWN");
        return ok({ status: "ready" as const });
      },
      doc({
        summary: "Readiness: whether this process takes requests",
        description:
          "200 while the process serves; 503 SHUTTING_DOWN from the moment it is told to stop (SIGTERM or SIGINT) until it exits, so a load balancer sends new requests elsewhere while it finishes its running jobs (up to SHUTDOWN_GRACE_MS). Never rate-limited. Health, not readiness, checks the database and storage.",
        tags: ["System"],
        auth: "public",
        data: Ready,
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
