/** Composes the HTTP application from its plugins and resource modules. */
import { Elysia } from "elysia";
import "./http/date-time-format"; // after Elysia: replaces its date-time check (see there)
import { httpCore } from "./http/core";
import { openapiPlugin } from "./http/openapi";
import { staticSite } from "./http/static";
import { accountModule } from "./modules/account";
import { adminModule } from "./modules/admin";
import { authRoutes } from "./modules/auth-routes";
import { configModule } from "./modules/config";
import { filesModule } from "./modules/files";
import { systemModule } from "./modules/system";
import { tokensModule } from "./modules/tokens";
import { toolsModule } from "./modules/tools";
import { toolRunsModule } from "./modules/tool-runs";
import { batchModule } from "./modules/batch";
import type { Services } from "./services";
import { workflowsModule } from "./modules/workflows";
import { triggersModule } from "./modules/triggers";
import { mcpModule } from "./mcp";

export function createApp(s: Services) {
  // normalize off: unknown body fields are a VALIDATION_ERROR instead of being dropped silently.
  return new Elysia({ normalize: false })
    .use(httpCore(s))
    .use(openapiPlugin())
    .use(systemModule(s))
    .use(configModule(s))
    .use(authRoutes(s))
    .use(accountModule(s))
    .use(tokensModule(s))
    .use(toolsModule(s.env.toolMaxInputBytes))
    .use(toolRunsModule(s, s.jobs, s.idempotency, { waitMs: s.env.toolWaitMs }))
    .use(filesModule(s, s.files))
    .use(batchModule(s, { batches: s.batches, hub: s.batchEvents, zips: s.zips, heartbeatMs: s.env.sseHeartbeatMs }))
    .use(workflowsModule(s, s.workflows, { hub: s.runEvents, heartbeatMs: s.env.sseHeartbeatMs }))
    .use(triggersModule(s, s.triggers))
    .use(adminModule(s, s.files))
    .use(mcpModule(s))
    .use(staticSite()); // last: the web app (web/dist) answers only what no route above does
}

export type App = ReturnType<typeof createApp>;
