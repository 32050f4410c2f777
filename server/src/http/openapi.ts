/**
 * GET /openapi.json (OpenAPI 3.1.0, generated from the route schemas) and the readable API
 * reference at /docs (Scalar, served from our own copy so it works offline).
 */
import { openapi } from "@elysiajs/openapi";
import { ERROR_CATALOG } from "@vektor/shared/errors";
import { Elysia } from "elysia";
import { dirname, join } from "node:path";
import { CompressibleText } from "./compressed";
import { JSON_BODY_KEY } from "./docs";
import { openapiWebhooks } from "../workflows/triggers/docs";

type Operation = { requestBody?: { content?: Record<string, unknown> }; [JSON_BODY_KEY]?: unknown };

/**
 * The generator cannot tell that a body read by our capped JSON parser (a named parser) is JSON
 * and leaves its content empty: the schema docJson left on the operation goes there instead.
 */
function fillJsonBodies(doc: { paths?: Record<string, Record<string, Operation>> }): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const schema = op[JSON_BODY_KEY];
      if (schema === undefined) continue;
      delete op[JSON_BODY_KEY];
      op.requestBody = { ...op.requestBody, content: { "application/json": { schema } } };
    }
  }
}

/**
 * The document describes itself: GET /openapi.json is an operation of the spec, served by the
 * plugin outside the routes it generates the document from. It answers the raw document.
 */
const SELF = {
  get: {
    operationId: "getOpenapiJson",
    summary: "This OpenAPI 3.1 description",
    description: "The raw OpenAPI 3.1.0 document (`openapi` at the top level), not wrapped in the success envelope, so that any OpenAPI tool reads it as it is; brotli- or gzip-compressed when Accept-Encoding allows (as is the script of /docs). Public; the readable reference of the same document is at /docs.",
    tags: ["System"],
    security: [],
    responses: {
      "200": {
        description: "The OpenAPI document",
        content: { "application/json": { schema: { type: "object", required: ["openapi", "info", "paths"], properties: { openapi: { const: "3.1.0", type: "string" }, info: { type: "object" }, paths: { type: "object" } } } } },
      },
    },
  },
};

// The package's exports map hides dist/browser; find it beside the package's main entry.
const scalarBundle = join(dirname(Bun.resolveSync("@scalar/api-reference", import.meta.dir)), "browser", "standalone.js");

const errorTable = Object.entries(ERROR_CATALOG)
  .map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.message} |`)
  .join("\n");

const DESCRIPTION = `Upload engineering files (CAD, GIS, point cloud, PCB, BIM, PDF, media), run tools on them, batches and workflows.

**Envelopes.** Every JSON answer is \`{ ok: true, data }\` or \`{ ok: false, error: { code, message } }\`. Raw answers: this document, downloads, event streams and ZIP streams. Every answer carries \`X-Request-Id\`.

**Authentication.** Session cookie \`svc.session_token\` from \`POST /api/auth/sign-in/email\`, or \`Authorization: Bearer vk_...\` (API token with scope \`api\`) on the user endpoints. Token management and admin endpoints take the cookie only. Signed URLs (uploads, downloads) need neither. A credential is checked against the database at most once a second per server process (\`AUTH_CACHE_MS\`); signing out, revoking a session or a token and changes to an account take effect at once on the process that made them and within 2 s (usually milliseconds) on every other process sharing the database. Admin configuration changes do the same.

**Agents (MCP).** \`POST /api/mcp\` speaks the Model Context Protocol (streamable HTTP, stateless). Anonymous callers get the tools list_tools and ping; an API token adds list_batches and list_workflows; a token with scope \`mcp:write\` adds create_batch and run_workflow. Its refusals are JSON-RPC errors or \`isError\` results that carry the codes below (see the MCP tag).

**Lists.** \`limit\` is an integer 1..200 (default 50); lists that can grow answer \`{ items, nextCursor }\`; pass \`cursor\` for the next page. \`keys\` filters are comma-separated key names. A page of the file list and a run's detail may be answered from memory for up to \`READ_CACHE_MS\` (1 s): a change drops it before the request that made it is answered, so a client always reads its own writes, and any other change (another process's, a background job's) within milliseconds.

**Limits.** JSON bodies: 1 MiB, nested at most 64 arrays and objects deep (400 \`VALIDATION_ERROR\` naming the limit; the same for the JSON held in \`graphJson\` and \`paramsJson\`). Text that PostgreSQL cannot store, a NUL character (U+0000, or \`%00\` in a URL) or a lone UTF-16 surrogate, is a 400 \`VALIDATION_ERROR\` too. A request line and headers over 16 KiB are refused by the HTTP layer itself: 431 with no body. Rate limit: \`ratelimit.per_minute\` requests a minute per caller (cookie, token or address), in fixed one-minute windows, counted across every server process sharing a PostgreSQL database (counts are shared every \`RATE_LIMIT_SYNC_MS\`, so processes together may admit a few more between two syncs); over it: 429 \`RATE_LIMITED\` with \`Retry-After\`. \`GET /api/health\` and \`GET /api/ready\` are never rate-limited. A request body must arrive within \`REQUEST_BODY_TIMEOUT_MS\` (30 s) plus one second per \`REQUEST_BODY_MIN_RATE\` bytes (16 KiB) of its length, else 408 \`REQUEST_TIMEOUT\` and the connection is closed.

**Outages.** A full disk is 507 \`STORAGE_FULL\` (503 when it is the database that cannot write); an unreachable object store 503 \`STORAGE_UNAVAILABLE\` with \`Retry-After\`. Nothing partial is kept: the same call works once the fault is over.

**Errors.**

| HTTP | code | meaning |
|---|---|---|
${errorTable}
`;

/**
 * Scalar with nothing that calls another host, for a self-hosted, offline-capable service: the
 * system's fonts instead of fonts.scalar.com, no telemetry, and the features backed by Scalar's
 * services off ("Ask AI", "Generate MCP", the developer tools' "Deploy"). Option names from
 * @scalar/api-reference's configuration schema.
 */
const SELF_CONTAINED = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
};

/**
 * Put before Scalar's bundle: the Zod inside it probes for `Function("")` to compile its
 * validators, which /docs's Content-Security-Policy (no 'unsafe-eval') refuses with a violation
 * report; jitless (Zod's global config, read from globalThis) skips the probe and validates the same.
 */
const ZOD_JITLESS = "globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });\n";

/** The bundle with ZOD_JITLESS before it, read once, on the first visit to /docs. */
let scalarText: Promise<CompressibleText> | undefined;
const scalarScript = () => (scalarText ??= Bun.file(scalarBundle).text().then((bundle) => new CompressibleText(ZOD_JITLESS + bundle)));

/** The OpenAPI document as last answered: the same text every time, so its compressed forms are made once. */
let documentText: { text: string; compressible: CompressibleText } | undefined;

function documentResponse(doc: unknown, acceptEncoding: string | null): Promise<Response> {
  const text = JSON.stringify(doc);
  if (documentText?.text !== text) documentText = { text, compressible: new CompressibleText(text) };
  return documentText.compressible.response(acceptEncoding, { "content-type": "application/json; charset=utf-8" });
}

export function openapiPlugin() {
  return new Elysia({ name: "openapi" })
    // Before the plugin's routes, so it applies to its /openapi.json.
    .onAfterHandle(({ request, response }) => {
      if (!request.url.endsWith("/openapi.json") || !response || typeof response !== "object" || response instanceof Response) return;
      const doc = response as { paths?: Record<string, unknown> };
      fillJsonBodies(doc as never);
      doc.paths = { ...doc.paths, "/openapi.json": SELF };
      return documentResponse(doc, request.headers.get("accept-encoding"));
    })
    .get(
      "/docs/scalar.js",
      async ({ request }) => (await scalarScript()).response(request.headers.get("accept-encoding"), { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" }),
      { detail: { hide: true } },
    )
    .use(
      openapi({
        path: "/docs",
        specPath: "/openapi.json",
        openapiVersion: "3.1.0",
        provider: "scalar",
        scalar: { cdn: "/docs/scalar.js", url: "/openapi.json", ...SELF_CONTAINED } as never,
        exclude: { paths: ["/docs/scalar.js"] },
        documentation: {
          info: { title: "Vektor conversion and workflow service", version: "1.0.0", description: DESCRIPTION, license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" } },
          tags: [
            { name: "System" },
            { name: "Configuration" },
            { name: "Auth" },
            { name: "Account" },
            { name: "Tokens" },
            { name: "Files" },
            { name: "Tools" },
            { name: "Jobs" },
            { name: "Batch" },
            { name: "Workflows" },
            { name: "Admin" },
            { name: "MCP", description: "Model Context Protocol for agents: POST /api/mcp (streamable HTTP, stateless, JSON-RPC 2.0)" },
          ],
          // What the service sends: the completion webhook of a run (OpenAPI 3.1 webhooks).
          // The plugin types its documentation as 3.0 or 3.1; webhooks exist only in 3.1, which this document is.
          webhooks: openapiWebhooks() as never,
          components: {
            securitySchemes: {
              cookieAuth: { type: "apiKey", in: "cookie", name: "svc.session_token", description: "Session cookie set by sign-in or sign-up" },
              bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "vk_...", description: "API token (POST /api/tokens)" },
              webhookSignature: {
                type: "apiKey",
                in: "header",
                name: "X-Service-Signature",
                description: "sha256=<hex HMAC-SHA-256 of \"<X-Service-Timestamp>.<raw body>\"> keyed with the trigger secret; X-Service-Timestamp is Unix seconds, at most 300 s old",
              },
              signedUrl: { type: "apiKey", in: "query", name: "sig", description: "Signature of a presigned URL (with `exp`)" },
            },
          },
        },
      }),
    );
}
