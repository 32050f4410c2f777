/**
 * Failed sign-ins over real HTTP from several loopback addresses (127.0.0.x as the connection's
 * source): the growing back-off per account and per address, Better Auth's per-address cap, and
 * unknown e-mails answered like known ones.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import http from "node:http";
import { FIRST_WAIT_S, FREE_PER_ACCOUNT, FREE_PER_ADDRESS } from "../src/auth/sign-in-throttle";
import { SIGN_IN_PER_MINUTE } from "../src/auth/better-auth";
import { PASSWORD, startTestServer, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer()));
afterAll(() => srv.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { ok: boolean; error?: { code: string; message: string } };
}

/** A sign-in sent from `from` (a loopback address), so the server sees that client address. */
function signInFrom(from: string, email: string, password: string, extra: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(`${srv.url}/api/auth/sign-in/email`);
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", localAddress: from, headers: { "content-type": "application/json", origin: srv.url, ...extra } },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const retryAfter = (a: Answer) => Number(a.headers["retry-after"]);

function expectThrottled(a: Answer, atMost: number, moreThan = 0) {
  expect(a.status).toBe(429);
  expect(a.body.error?.code).toBe("RATE_LIMITED");
  expect(retryAfter(a)).toBeGreaterThan(moreThan);
  expect(retryAfter(a)).toBeLessThanOrEqual(atMost);
}

async function failTimes(from: string, email: string, n: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await signInFrom(from, email, `wrong guess ${i}`));
  return answers;
}

describe("failed sign-ins are throttled", () => {
  test("per account: the failing address waits, the wait doubles, a clean address still signs in", async () => {
    const { email } = await srv.user();
    const failed = await failTimes("127.0.0.11", email, FREE_PER_ACCOUNT);
    expect(failed.map((a) => a.status)).toEqual(Array(FREE_PER_ACCOUNT).fill(401));
    expectThrottled(await signInFrom("127.0.0.11", email, "one more guess"), FIRST_WAIT_S);
    // Even the right password waits there: the throttle must not tell a right guess from a wrong one.
    expectThrottled(await signInFrom("127.0.0.11", email, PASSWORD), FIRST_WAIT_S);
    // A new address gets one guess; failing it doubles the account's wait for the failed addresses.
    expect((await signInFrom("127.0.0.12", email, "fresh guess")).status).toBe(401);
    expectThrottled(await signInFrom("127.0.0.12", email, "fresh guess 2"), 2 * FIRST_WAIT_S, FIRST_WAIT_S);
    expectThrottled(await signInFrom("127.0.0.11", email, "guess"), 2 * FIRST_WAIT_S, FIRST_WAIT_S);
    // The owner, from an address that has not failed, signs in.
    const owner = await signInFrom("127.0.0.13", email, PASSWORD);
    expect(owner.status).toBe(200);
    expect(String(owner.headers["set-cookie"])).toContain("svc.session_token=");
  });

  test("an e-mail with no account is answered exactly like one with an account", async () => {
    const { email } = await srv.user();
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const known = await failTimes("127.0.0.14", email, FREE_PER_ACCOUNT + 1);
    const other = await failTimes("127.0.0.15", unknown, FREE_PER_ACCOUNT + 1);
    expect(other.map((a) => [a.status, a.body])).toEqual(known.map((a) => [a.status, a.body]));
    expect(other.map((a) => Object.keys(a.headers).filter((h) => h !== "date" && h !== "x-request-id").sort())).toEqual(
      known.map((a) => Object.keys(a.headers).filter((h) => h !== "date" && h !== "x-request-id").sort()),
    );
    expect(known.at(-1)!.status).toBe(429);
  });

  test("per address: failures on many e-mails make that address wait for any e-mail", async () => {
    const from = "127.0.0.16";
    for (let i = 0; i < FREE_PER_ADDRESS; i++) expect((await signInFrom(from, `spray-${i}-${crypto.randomUUID().slice(0, 6)}@example.test`, "Summer2024!")).status).toBe(401);
    const { email } = await srv.user();
    expectThrottled(await signInFrom(from, email, PASSWORD), FIRST_WAIT_S);
    expect((await signInFrom("127.0.0.17", email, PASSWORD)).status).toBe(200);
  });

  test(`Better Auth's own cap: ${SIGN_IN_PER_MINUTE} tries a minute from one address, then 429 with Retry-After; a header cannot pick another address`, async () => {
    const { email } = await srv.user();
    const from = "127.0.0.18";
    for (let i = 0; i < SIGN_IN_PER_MINUTE; i++) expect((await signInFrom(from, email, PASSWORD)).status).toBe(200);
    expectThrottled(await signInFrom(from, email, PASSWORD), 60);
    expectThrottled(await signInFrom(from, email, PASSWORD, { "x-vektor-client-address": "198.51.100.7", "x-forwarded-for": "198.51.100.8" }), 60);
    expect((await signInFrom("127.0.0.19", email, PASSWORD)).status).toBe(200);
  });
});

describe("behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  let proxied: TestServer;
  beforeAll(async () => void (proxied = await startTestServer({ TRUST_PROXY: "loopback" })));
  afterAll(() => proxied.close());

  /** A sign-in as the proxy passes it on: the client's address in X-Forwarded-For. */
  const viaProxy = (client: string, email: string, password: string) =>
    fetch(`${proxied.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: proxied.url, "x-forwarded-for": client, "x-forwarded-proto": "https" },
      body: JSON.stringify({ email, password }),
    });

  test("the forwarded address is the one throttled; another client of the same proxy still signs in, with Secure cookies over HTTPS", async () => {
    const { email } = await proxied.user();
    for (let i = 0; i < FREE_PER_ACCOUNT; i++) expect((await viaProxy("203.0.113.5", email, `wrong ${i}`)).status).toBe(401);
    const held = await viaProxy("203.0.113.5", email, PASSWORD);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await viaProxy("203.0.113.6", email, PASSWORD);
    expect(other.status).toBe(200);
    const cookie = other.headers.getSetCookie().find((c) => c.includes("session_token="))!;
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  });
});
