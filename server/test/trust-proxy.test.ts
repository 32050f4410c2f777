/**
 * Behind a reverse proxy, over real HTTP on loopback: with TRUST_PROXY naming 127.0.0.1 (the
 * proxy here) X-Forwarded-For decides whose rate limit a request counts against, and
 * X-Forwarded-Proto: https makes cookies Secure; a server that does not trust loopback ignores
 * the same headers, so forging them changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PASSWORD, startTestServer, type TestServer } from "./harness";

let behindProxy: TestServer;
let direct: TestServer;
beforeAll(async () => {
  [behindProxy, direct] = await Promise.all([startTestServer({ TRUST_PROXY: "127.0.0.1" }), startTestServer({ TRUST_PROXY: "10.0.0.0/8" })]);
});
afterAll(() => Promise.all([behindProxy?.close(), direct?.close()]));

/** Runs `fn` with ratelimit.per_minute at `limit`, inside one clock-minute window, and forgets the counts after. */
async function withRateLimit(srv: TestServer, limit: number, fn: () => Promise<void>) {
  const admin = await srv.admin();
  await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": limit });
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await Bun.sleep(left + 50);
  try {
    await fn();
  } finally {
    srv.services.limiter.hit("reset", 1, 0);
    await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 600 });
  }
}

const anonStatus = (srv: TestServer, forwardedFor?: string) =>
  fetch(`${srv.url}/api/files`, { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} }).then((r) => r.status);

async function signUpCookies(srv: TestServer, headers: Record<string, string>): Promise<string[]> {
  const email = `proxy-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const res = await fetch(`${srv.url}/api/auth/sign-up/email`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ name: "p", email, password: PASSWORD }) });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie();
}

describe("TRUST_PROXY", () => {
  test("from a trusted proxy, each forwarded client has its own rate limit", async () => {
    await withRateLimit(behindProxy, 5, async () => {
      const first: number[] = [];
      for (let i = 0; i < 7; i++) first.push(await anonStatus(behindProxy, "198.51.100.1"));
      expect(first).toContain(429);
      // Another client behind the same proxy is not held back by the first one's burst.
      expect(await anonStatus(behindProxy, "198.51.100.2")).toBe(401);
      // A forged entry to the left of what the proxy appended does not buy the first client a new limit.
      expect(await anonStatus(behindProxy, "203.0.113.77, 198.51.100.1")).toBe(429);
    });
  });

  test("from an address that is not trusted, forged X-Forwarded-For changes nothing", async () => {
    await withRateLimit(direct, 5, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push(await anonStatus(direct, `198.51.100.${i + 1}`));
      expect(statuses).toContain(429);
      expect(await anonStatus(direct, "198.51.100.200")).toBe(429);
    });
  });

  test("cookies are Secure when a trusted proxy says the request was HTTPS, and only then", async () => {
    const secure = (cookies: string[]) => cookies.length > 0 && cookies.every((c) => /;\s*secure\s*(;|$)/i.test(c));
    expect(secure(await signUpCookies(behindProxy, { "x-forwarded-proto": "https" }))).toBe(true);
    const plain = await signUpCookies(behindProxy, {});
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.some((c) => /secure/i.test(c))).toBe(false);
    // The same claim from an untrusted address: plain HTTP, no Secure (a browser would drop the cookie on http://).
    expect((await signUpCookies(direct, { "x-forwarded-proto": "https" })).some((c) => /secure/i.test(c))).toBe(false);
  });
});
