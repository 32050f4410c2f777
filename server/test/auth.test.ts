/** Accounts, sessions, API tokens and the envelope on every protected endpoint. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN_EMAIL, expectApiError, PASSWORD, startTestServer, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer()));
afterAll(() => srv.close());

describe("sign-up, sessions and the account", () => {
  test("sign-up sets a *session_token cookie with a neutral prefix and grants the sign-up credits", async () => {
    const res = await fetch(`${srv.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: srv.url },
      body: JSON.stringify({ name: "Ada", email: "ada@example.test", password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="))!;
    expect(cookie.startsWith("svc.session_token=")).toBe(true);
    const me = await fetch(`${srv.url}/api/account`, { headers: { cookie: cookie.split(";")[0] } }).then((r) => r.json());
    expect(me).toEqual({ ok: true, data: { id: expect.any(String), email: "ada@example.test", name: "Ada", role: "user", plan: "free", credits: 100 } });
  });

  test("the ledger explains the balance", async () => {
    const c = await srv.user();
    const ledger = await c.credits();
    expect(ledger.map((e) => [e.amount, e.reason])).toEqual([[100, "signup_grant"]]);
  });

  test("ADMIN_EMAILS accounts are admins", async () => {
    const a = await srv.admin();
    expect((await a.account()).role).toBe("admin");
    expect(a.email).toBe(ADMIN_EMAIL);
  });

  test("sign-in works and sign-out ends the session", async () => {
    const c = await srv.user();
    const again = srv.anon();
    await again.auth.signIn({ email: c.email, password: PASSWORD });
    expect((await again.account()).email).toBe(c.email);
    await again.auth.signOut();
    await expectApiError(() => again.account(), "UNAUTHORIZED", 401);
  });

  test("a wrong password does not sign in", async () => {
    const c = await srv.user();
    const res = await fetch(`${srv.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: srv.url },
      body: JSON.stringify({ email: c.email, password: "wrong password!" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().some((x) => /session_token=[^;]+/.test(x))).toBe(false);
  });
});

describe("sign-up and sign-in from a script (no Origin)", () => {
  // What Node 20's fetch (undici) sends by itself: Sec-Fetch-Mode but no Origin, Referer or cookie.
  const nodeFetch = { "content-type": "application/json", accept: "*/*", "accept-language": "*", "sec-fetch-mode": "cors", "user-agent": "node" };
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${srv.url}/api/auth/${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const hasSession = (res: Response) => res.headers.getSetCookie().some((c) => /^svc\.session_token=[^;]+/.test(c));

  test("a Node fetch without Origin can sign up and sign in", async () => {
    const email = `script-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const up = await post("sign-up/email", { name: "Script", email, password: PASSWORD }, nodeFetch);
    expect(up.status).toBe(200);
    expect(hasSession(up)).toBe(true);
    const inn = await post("sign-in/email", { email, password: PASSWORD }, nodeFetch);
    expect(inn.status).toBe(200);
    expect(hasSession(inn)).toBe(true);
  });

  test("a browser request from a foreign origin is still refused", async () => {
    const c = await srv.user();
    const evil = { ...nodeFetch, origin: "http://evil.example", "sec-fetch-site": "cross-site" };
    const up = await post("sign-up/email", { name: "Evil", email: `evil-${crypto.randomUUID().slice(0, 8)}@example.test`, password: PASSWORD }, evil);
    const inn = await post("sign-in/email", { email: c.email, password: PASSWORD }, evil);
    for (const res of [up, inn]) {
      expect(res.status).toBe(403);
      expect(hasSession(res)).toBe(false);
    }
  });

  test("a request that carries a cookie but no Origin is still refused", async () => {
    const c = await srv.user();
    const res = await post("sign-in/email", { email: c.email, password: PASSWORD }, { ...nodeFetch, cookie: "svc.session_token=x" });
    expect(res.status).toBe(403);
    // Better Auth's refusal (MISSING_OR_NULL_ORIGIN), in the error envelope with the catalog's code.
    const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect(body.error.message).toMatch(/origin/i);
  });
});

describe("every protected endpoint answers 401 UNAUTHORIZED in the envelope", () => {
  const protectedRoutes: [string, string, unknown?][] = [
    ["GET", "/api/account"],
    ["GET", "/api/account/credits"],
    ["GET", "/api/tokens"],
    ["POST", "/api/tokens", { name: "x" }],
    ["DELETE", "/api/tokens/tok_x"],
    ["GET", "/api/files"],
    ["GET", "/api/files/f_x"],
    ["DELETE", "/api/files/f_x"],
    ["GET", "/api/files/download/f_x"],
    ["POST", "/api/files/presign-upload", { filename: "a.pdf", mime: "application/pdf", size: 1 }],
    ["POST", "/api/files/confirm", { fileId: "f_x" }],
    ["POST", "/api/files/presign-download", { fileId: "f_x" }],
    ["POST", "/api/files/import-url", { url: "http://127.0.0.1/" }],
    ["POST", "/api/files/multipart/part", { fileId: "f", uploadId: "u", partNumber: 1 }],
    ["POST", "/api/files/multipart/complete", { fileId: "f", uploadId: "u", parts: [{ partNumber: 1, etag: "e" }] }],
    ["POST", "/api/files/multipart/abort", { fileId: "f", uploadId: "u" }],
    ["GET", "/api/admin/config"],
    ["PUT", "/api/admin/config/batch_configs", { "batch.enabled": false }],
    ["POST", "/api/admin/credits", { email: "a@b.c", amount: 1, reason: "x" }],
    ["POST", "/api/admin/system/retention", {}],
  ];
  for (const [method, path, body] of protectedRoutes) {
    test(`${method} ${path}`, async () => {
      const res = await fetch(`${srv.url}${path}`, {
        method,
        headers: body ? { "content-type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ ok: false, error: { code: "UNAUTHORIZED", message: "Unauthorized" } });
      expect(res.headers.get("x-request-id")).toBeTruthy();
    });
  }

  test("a garbage or unknown bearer token is 401", async () => {
    for (const token of ["nope", "vk_short", `vk_${"a".repeat(40)}`]) {
      const res = await fetch(`${srv.url}/api/account`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
    }
  });
});

describe("API tokens", () => {
  test("create returns vk_ once; list never shows it; bearer works on S endpoints; revoke stops it at once", async () => {
    const c = await srv.user();
    const created = await c.tokens.create({ name: "ci" });
    expect(created.token).toMatch(/^vk_[0-9A-Za-z]{40}$/);
    expect(created.scopes).toEqual(["api"]);
    const listed = await c.tokens.list();
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(listed[0]).toMatchObject({ id: created.id, name: "ci", prefix: "vk_" + created.token.slice(3, 7), last4: created.token.slice(-4) });

    const bearer = c.withToken(created.token);
    expect((await bearer.account()).email).toBe(c.email);
    expect((await c.tokens.list())[0].lastUsedAt).not.toBeNull();

    await c.tokens.revoke(created.id);
    await expectApiError(() => bearer.account(), "UNAUTHORIZED", 401);
    await expectApiError(() => c.tokens.revoke(created.id), "NOT_FOUND", 404);
  });

  test("tokens are hashed at rest", async () => {
    const c = await srv.user();
    const created = await c.tokens.create({ name: "hash" });
    const { apiToken } = await import("../src/db/schema");
    const rows = await srv.services.database.db.select().from(apiToken);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(created.token);
    expect(dump).toContain(new Bun.CryptoHasher("sha256").update(created.token).digest("hex"));
  });

  test("token management and admin endpoints take the session cookie only", async () => {
    const a = await srv.admin();
    const t = await a.tokens.create({ name: "admin-token", scopes: ["api", "mcp:write"] });
    const bearer = a.withToken(t.token);
    await expectApiError(() => bearer.tokens.list(), "UNAUTHORIZED", 401);
    await expectApiError(() => bearer.admin.config(), "UNAUTHORIZED", 401);
    expect((await bearer.account()).role).toBe("admin");
  });

  test("a token without the api scope cannot use the S endpoints", async () => {
    const c = await srv.user();
    const t = await c.tokens.create({ name: "mcp only", scopes: ["mcp:write"] });
    await expectApiError(() => c.withToken(t.token).account(), "FORBIDDEN", 403);
  });

  test("an expired token stops working", async () => {
    const c = await srv.user();
    const t = await c.tokens.create({ name: "short", expiresInDays: 1 });
    const { apiToken } = await import("../src/db/schema");
    const { eq } = await import("drizzle-orm");
    await srv.services.database.db.update(apiToken).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiToken.id, t.id));
    await expectApiError(() => c.withToken(t.token).account(), "UNAUTHORIZED", 401);
  });

  test("bad token bodies are VALIDATION_ERROR", async () => {
    const c = await srv.user();
    await expectApiError(() => c.tokens.create({ name: "" }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.tokens.create({ name: "x", scopes: ["root" as "api"] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("POST", "/api/tokens", { name: "x", extra: 1 }), "VALIDATION_ERROR", 400);
  });

  test("another user's token id is 404", async () => {
    const a = await srv.user();
    const b = await srv.user();
    const t = await a.tokens.create({ name: "mine" });
    await expectApiError(() => b.tokens.revoke(t.id), "NOT_FOUND", 404);
    expect(await a.tokens.list()).toHaveLength(1);
  });
});
