/**
 * Slow clients: hundreds of connections trickling request bodies in do not keep the service from
 * answering others, each is cut off with 408 REQUEST_TIMEOUT once past its deadline (short limits
 * here: REQUEST_BODY_TIMEOUT_MS and REQUEST_BODY_MIN_RATE), and health stays out of the rate limit.
 * `bench/slow-clients.ts` does the same with a few thousand.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { startTestServer, waitFor, type TestServer } from "./harness";

const SLOW_CLIENTS = 300;
const GRACE_MS = 2000;
const MIN_RATE = 100; // bytes a second
const BODY_BYTES = 200; // so each body may take GRACE_MS + 2 s

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ REQUEST_BODY_TIMEOUT_MS: String(GRACE_MS), REQUEST_BODY_MIN_RATE: String(MIN_RATE) });
});
afterAll(() => srv.close());

type Presigned = { fileId: string; uploadUrl: string };

/** A raw connection that sends a request's head and then one body byte every `everyMs`; collects what comes back. */
function trickle(url: string, method: string, headers: Record<string, string>, everyMs: number) {
  const u = new URL(url);
  const socket: Socket = connect(Number(u.port), u.hostname);
  let answer = "";
  let closed = false;
  const head = [`${method} ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, `content-length: ${BODY_BYTES}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${head.join("\r\n")}\r\n\r\n{`);
  const timer = setInterval(() => socket.writable && socket.write(" "), everyMs);
  socket.on("data", (d) => (answer += d.toString()));
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
    clearInterval(timer);
  });
  return {
    get answer() {
      return answer;
    },
    get closed() {
      return closed;
    },
    end() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { ok: boolean; error: { code: string; message: string } };

describe("slow clients", () => {
  test(`${SLOW_CLIENTS} slow uploads hang on while health and a signed-in request are answered, then each gets 408 REQUEST_TIMEOUT`, async () => {
    const c = await srv.user();
    const urls = await Promise.all(
      Array.from({ length: SLOW_CLIENTS }, (_, i) => c.files.presignUpload<Presigned>({ filename: `s${i}.bin`, mime: "application/octet-stream", size: BODY_BYTES }).then((p) => p.uploadUrl)),
    );
    const started = Date.now();
    const clients = urls.map((url) => trickle(url, "PUT", {}, 1000));
    try {
      await Bun.sleep(500);
      // While every slow client is still sending, others are served.
      expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
      expect((await c.account()).email).toBe(c.email);
      const stillOpen = clients.filter((s) => !s.closed && s.answer === "").length;
      // Unless the machine stalled past the deadline meanwhile, every slow client is still waiting.
      if (Date.now() - started < GRACE_MS) expect(stillOpen).toBe(SLOW_CLIENTS);

      await waitFor("every slow client to be answered", () => clients.filter((s) => s.answer.includes("\r\n\r\n{")).length, (n) => n === SLOW_CLIENTS, 60_000, 100);
      // None was cut off before its deadline (grace plus its length at the minimum rate).
      expect(Date.now() - started).toBeGreaterThanOrEqual(GRACE_MS + (BODY_BYTES / MIN_RATE) * 1000);
      for (const s of clients) {
        expect(statusOf(s.answer)).toBe(408);
        expect(envelopeOf(s.answer)).toMatchObject({ ok: false, error: { code: "REQUEST_TIMEOUT" } });
      }
      await waitFor("the slow connections to be closed", () => clients.filter((s) => s.closed).length, (n) => n === SLOW_CLIENTS, 30_000, 100);
      // Nothing of theirs was kept: the files still have no bytes.
      const f = await c.files.list({ limit: 1 });
      expect(f.items[0]?.status).toBe("PENDING");
    } finally {
      for (const s of clients) s.end();
    }
    expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
  }, 120_000);

  test("a JSON body sent too slowly is 408 REQUEST_TIMEOUT with the error envelope; a quick one still works", async () => {
    const c = await srv.user();
    const slow = trickle(`${srv.url}/api/workflows`, "POST", { cookie: c.t.cookie!, "content-type": "application/json", origin: srv.url }, 1000);
    try {
      await waitFor("the slow body to be answered", () => slow.answer, (a) => a.includes("\r\n\r\n{"), 60_000, 100);
      expect(statusOf(slow.answer)).toBe(408);
      const body = envelopeOf(slow.answer);
      expect(body.error.code).toBe("REQUEST_TIMEOUT");
      expect(body.error.message).toContain("did not arrive within");
    } finally {
      slow.end();
    }
    expect((await c.account()).email).toBe(c.email);
  }, 60_000);

  test("Better Auth's routes are under the same deadline: a sign-in body sent too slowly is 408 REQUEST_TIMEOUT", async () => {
    const c = await srv.user();
    const slow = trickle(`${srv.url}/api/auth/sign-in/email`, "POST", { "content-type": "application/json", origin: srv.url }, 1000);
    try {
      await waitFor("the slow sign-in to be answered", () => slow.answer, (a) => a.includes("\r\n\r\n{"), 60_000, 100);
      expect(statusOf(slow.answer)).toBe(408);
      expect(envelopeOf(slow.answer).error.code).toBe("REQUEST_TIMEOUT");
    } finally {
      slow.end();
    }
    expect((await c.account()).email).toBe(c.email);
  }, 60_000);

  test("health stays out of the rate limit: an address over its limit still gets 200 from /api/health", async () => {
    const admin = await srv.admin();
    await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 5 });
    // Fixed clock-minute windows: start with 10 s of this one left, so no rollover forgets the counts.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await Bun.sleep(left + 50);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await fetch(`${srv.url}/api/files`)).status);
      expect(statuses).toContain(429);
      for (let i = 0; i < 10; i++) expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
    } finally {
      srv.services.limiter.hit("reset", 1, 0); // a new window forgets the counts
      await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 600 });
    }
  });
});
