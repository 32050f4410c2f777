/** Health, status, request ids, envelopes for unknown routes and huge bodies, rate limiting, OpenAPI. */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ERROR_CATALOG } from "@vektor/shared/errors";
import { get } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startTestServer, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer()));
afterAll(() => srv.close());

describe("system", () => {
  test("health checks the database and the storage", async () => {
    const res = await fetch(`${srv.url}/api/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, data: { status: "ok", checks: { database: { ok: true }, storage: { ok: true } } } });
  });

  test("readiness is 200 while serving and 503 SHUTTING_DOWN once the process drains", async () => {
    const ready = await fetch(`${srv.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, data: { status: "ready" } });
    // What the stop (SIGTERM) sets first; the rest of a stop is tested with real processes in rolling-restart.test.ts.
    srv.services.lifecycle.draining = true;
    try {
      const draining = await fetch(`${srv.url}/api/ready`);
      expect(draining.status).toBe(503);
      expect((await draining.json()).error.code).toBe("SHUTTING_DOWN");
      expect((await fetch(`${srv.url}/api/health`)).status).toBe(200); // the database and storage are fine
    } finally {
      srv.services.lifecycle.draining = false;
    }
  });

  test("status shows version and uptime", async () => {
    const s = await srv.anon().status();
    expect(s).toMatchObject({ version: "1.0.0", database: process.env.TEST_DATABASE_URL ? "postgres" : "pglite", storage: "local", queueDepth: 0 });
    expect(typeof s.uptimeSeconds).toBe("number");
  });

  test("every answer carries a request id; a sane given one is kept", async () => {
    const a = await fetch(`${srv.url}/status`);
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const b = await fetch(`${srv.url}/api/nope`, { headers: { "x-request-id": "trace-12345678" } });
    expect(b.headers.get("x-request-id")).toBe("trace-12345678");
  });

  test("an unknown route is a NOT_FOUND envelope", async () => {
    const res = await fetch(`${srv.url}/api/does-not-exist`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error: { code: "NOT_FOUND", message: "No such route" } });
  });

  test("a huge JSON body is 413 PAYLOAD_TOO_LARGE and the server keeps serving", async () => {
    const c = await srv.user();
    const huge = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    const res = await c.t.fetch("/api/tokens", { method: "POST", headers: { "content-type": "application/json" }, body: huge });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream({
      start(ctl) {
        for (let i = 0; i < 40; i++) ctl.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
        ctl.close();
      },
    });
    const res2 = await c.t.fetch("/api/tokens", { method: "POST", headers: { "content-type": "application/json" }, body: chunked, duplex: "half" } as RequestInit);
    expect(res2.status).toBe(413);
    expect((await c.account()).email).toBe(c.email);
  });

  test("wrong types and missing fields are VALIDATION_ERROR naming the field", async () => {
    const c = await srv.user();
    const res = await c.t.fetch("/api/files/presign-upload", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ filename: "a.pdf", size: "big" }) });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.message).toMatch(/body\.(size|mime)/);
    expect(JSON.stringify(body)).not.toContain("at ");
  });
});

describe("rate limiting", () => {
  test("over ratelimit.per_minute a caller gets 429 with Retry-After; others are unaffected", async () => {
    const a = await srv.admin();
    const c = await srv.user();
    const p = await c.t.call<{ uploadUrl: string }>("POST", "/api/files/presign-upload", { filename: "a.bin", mime: "application/octet-stream", size: 3 });
    await a.admin.setConfig("platform_configs", { "ratelimit.per_minute": 5 });
    // The limiter counts in fixed clock-minute windows: a rollover half-way would forget the counts,
    // and the slower the machine, the likelier one falls inside the test. Start with 10 s left at least.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await Bun.sleep(left + 50);
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 8; i++) {
        const res = await c.t.fetch("/api/account");
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get("retry-after");
          expect((await res.json()).error.code).toBe("RATE_LIMITED");
        } else await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      // Signed transfers are not counted: this caller's address is over the limit, yet a PUT works.
      const anon = srv.anon();
      for (let i = 0; i < 6; i++) await (await anon.t.fetch("/api/files")).arrayBuffer();
      expect((await anon.t.fetch("/api/files")).status).toBe(429);
      expect((await anon.t.fetch("/api/health")).status).toBe(200); // probes are never rate-limited
      expect((await anon.t.fetch("/api/ready")).status).toBe(200);
      expect((await anon.t.fetch("/status")).status).toBe(200); // not an /api/ call
      expect((await fetch(p.uploadUrl, { method: "PUT", body: "abc" })).status).toBe(200);
    } finally {
      srv.services.limiter.hit("reset", 1, 0); // a new window forgets the counts
      await a.admin.setConfig("platform_configs", { "ratelimit.per_minute": 600 });
    }
  });
});

/** Every operation of the HTTP interface spec (shared/spec/http-interface.md), as its tables list them. */
const SPEC_OPERATIONS = [
  "GET /api/health", "GET /status", "GET /api/config/public", "GET /api/config/flags",
  "GET /api/config/thresholds", "GET /api/config/tools-index", "GET /api/tools/lookup",
  "GET /openapi.json", "POST /api/tools/{slug}", "POST /api/files/presign-upload",
  "POST /api/files/confirm", "GET /api/files/jobs-latest", "POST /api/files/import-url",
  "GET /api/files", "POST /api/files", "GET /api/files/{fileId}", "DELETE /api/files/{fileId}",
  "GET /api/files/download/{fileId}", "POST /api/files/presign-download",
  "POST /api/files/multipart/part", "POST /api/files/multipart/complete",
  "POST /api/files/multipart/abort", "GET /api/jobs/{jobId}", "GET /api/batch/settings",
  "POST /api/batch/estimate", "POST /api/batch", "GET /api/batch", "GET /api/batch/{id}",
  "POST /api/batch/{id}/cancel", "POST /api/batch/{id}/retry", "GET /api/batch/{id}/events",
  "GET /api/batch/{id}/zip", "GET /api/batch/presets", "POST /api/batch/presets",
  "POST /api/workflows/validate", "GET /api/workflows", "POST /api/workflows",
  "GET /api/workflows/catalog", "PUT /api/workflows/{id}", "DELETE /api/workflows/{id}",
  "POST /api/workflows/{id}/estimate", "POST /api/workflows/{id}/run",
  "GET /api/workflows/runs/{runId}", "POST /api/workflows/runs/{runId}/retry",
  "POST /api/workflows/runs/{runId}/replay", "GET /api/workflows/{id}/versions",
  "POST /api/workflows/{id}/versions/{versionId}/restore",
  "POST /api/workflows/runs/{runId}/approve", "GET /api/workflows/templates",
  "POST /api/workflows/templates", "DELETE /api/workflows/templates/{id}",
  "GET /api/workflows/{id}/triggers", "PUT /api/workflows/{id}/triggers",
  "DELETE /api/workflows/{id}/triggers/{triggerId}", "POST /api/workflows/{id}/hook",
  "GET /api/tokens", "POST /api/mcp",
];

/** A path with its parameters unnamed, so `{id}` in the spec matches `{workflowId}` in a route. */
const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, "{}");

describe("OpenAPI", () => {
  test("describes every operation of the spec, itself included (public, the raw document)", async () => {
    const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[]; responses?: Record<string, unknown> }>> };
    const served = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${shapeOf(path)}`)));
    const missing = SPEC_OPERATIONS.filter((op) => {
      const [method, path] = op.split(" ");
      return !served.has(`${method} ${shapeOf(path)}`);
    });
    expect(missing).toEqual([]);
    const self = doc.paths["/openapi.json"].get;
    expect(self.security).toEqual([]);
    expect(JSON.stringify(self.responses?.["200"])).toContain("3.1.0");
  });

  test("/openapi.json is a valid OpenAPI 3.1.0 document, version 1.0.0, with security schemes", async () => {
    const res = await fetch(`${srv.url}/openapi.json`);
    expect(res.status).toBe(200);
    const docJson = await res.json();
    expect(docJson.openapi).toBe("3.1.0");
    expect(docJson.info.version).toBe("1.0.0");
    const v = new Validator();
    const result = await v.validate(docJson);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 4000));
    expect(result.valid).toBe(true);
    expect(Object.keys(docJson.components.securitySchemes).sort()).toEqual(["bearerAuth", "cookieAuth", "signedUrl", "webhookSignature"]);
  });

  test("documents every route with bodies, success shapes and error codes", async () => {
    const docJson = await (await fetch(`${srv.url}/openapi.json`)).json();
    const paths = docJson.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown>; security?: unknown[] }>>;
    for (const p of [
      "/api/health",
      "/api/ready",
      "/status",
      "/api/config/public",
      "/api/config/flags",
      "/api/config/thresholds",
      "/api/account",
      "/api/account/credits",
      "/api/tokens",
      "/api/tokens/{id}",
      "/api/files",
      "/api/files/{fileId}",
      "/api/files/presign-upload",
      "/api/files/confirm",
      "/api/files/import-url",
      "/api/files/download/{fileId}",
      "/api/files/presign-download",
      "/api/files/multipart/part",
      "/api/files/multipart/complete",
      "/api/files/multipart/abort",
      "/api/admin/config",
      "/api/admin/config/{group}",
      "/api/admin/credits",
      "/api/admin/system/retention",
      "/api/auth/sign-up/email",
      "/api/auth/sign-in/email",
      "/api/auth/sign-out",
    ]) {
      expect(paths[p]).toBeDefined();
    }
    const confirm = paths["/api/files/confirm"].post;
    expect(confirm.requestBody).toBeDefined();
    // Every JSON body is documented with its schema (the capped parser hid them once: content {}).
    for (const [p, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const body = op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
        if (body) expect({ route: `${method} ${p}`, types: Object.keys(body.content ?? {}) }).not.toEqual({ route: `${method} ${p}`, types: [] });
      }
    }
    expect(JSON.stringify((paths["/api/workflows"].post.requestBody as { content: Record<string, unknown> }).content["application/json"])).toContain("graphJson");
    expect(JSON.stringify(docJson)).not.toContain("x-json-body");
    expect(Object.keys(confirm.responses).sort()).toEqual(["200", "400", "401", "404", "409", "422", "429", "500"]);
    expect(JSON.stringify(confirm.responses["422"])).toContain("FILE_SIGNATURE_MISMATCH");
    expect(paths["/api/files"].get.security).toEqual([{ cookieAuth: [] }, { bearerAuth: [] }]);
    for (const code of Object.keys(ERROR_CATALOG)) expect(docJson.info.description).toContain(code);
  });

  test("the API reference page is served and its script is local", async () => {
    const html = await (await fetch(`${srv.url}/docs`)).text();
    expect(html).toContain("/docs/scalar.js");
    const js = await fetch(`${srv.url}/docs/scalar.js`);
    expect(js.status).toBe(200);
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  test("the API reference's script and the OpenAPI document go out brotli- or gzip-compressed when asked, the same bytes once decoded", async () => {
    for (const path of ["/docs/scalar.js", "/openapi.json"]) {
      const plain = await rawGet(path, null);
      expect({ path, status: plain.status, coding: plain.headers["content-encoding"], vary: plain.headers.vary }).toEqual({ path, status: 200, coding: undefined, vary: "Accept-Encoding" });
      for (const [asked, coding, decode] of [
        ["gzip, deflate, br", "br", brotliDecompressSync],
        ["gzip", "gzip", gunzipSync],
        ["br;q=0, *", "gzip", gunzipSync],
      ] as const) {
        const res = await rawGet(path, asked);
        expect({ path, asked, coding: res.headers["content-encoding"], vary: res.headers.vary, id: Boolean(res.headers["x-request-id"]) }).toEqual({ path, asked, coding, vary: "Accept-Encoding", id: true });
        // The script shrinks about 4x, the document about 14-20x.
        expect(res.body.length).toBeLessThan(plain.body.length / 3);
        expect(Bun.hash(decode(res.body))).toBe(Bun.hash(plain.body));
      }
      expect(plain.headers["content-type"]).toContain(path.endsWith(".js") ? "text/javascript" : "application/json");
    }
    expect(JSON.parse((await rawGet("/openapi.json", null)).body.toString()).openapi).toBe("3.1.0");
  });
});

/** GET over real HTTP, the body as sent (fetch would decode it), with `accept-encoding` when given. */
function rawGet(path: string, acceptEncoding: string | null): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = get(`${srv.url}${path}`, { headers: acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}
