/**
 * The signed-in fast path keeps callers and configuration in memory (issue 14). What must still
 * hold: a signed-out session, a revoked token and a changed setting apply at once in the process
 * that made the change and within 2 s in every other process on the same PostgreSQL, and the
 * rate limit counts a caller's requests across processes. The single-process half runs on both
 * databases; the two-process half (a second `main.ts` on the same database) on PostgreSQL.
 */
import { VektorClient } from "@vektor/shared/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql as drizzleSql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { buildServices } from "../src/boot";
import { readEnv } from "../src/env";
import { freePort, PASSWORD, spawnServer, startTestServer, waitFor, type TestServer } from "./harness";

/** What `path` answers `headers` with: the status only. */
async function status(base: string, headers: Record<string, string>, path = "/api/files?limit=1"): Promise<number> {
  const res = await fetch(base + path, { headers });
  await res.arrayBuffer();
  return res.status;
}

const cookieOf = (c: VektorClient) => ({ cookie: c.t.cookie! });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("in the process that made the change, at once", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(() => srv?.close());

  test("a signed-out session stops working on its next request", async () => {
    const u = await srv.user();
    const headers = cookieOf(u);
    // Twice: the second answer comes from the cache, which the sign-out must empty.
    expect(await status(srv.url, headers)).toBe(200);
    expect(await status(srv.url, headers)).toBe(200);
    await u.auth.signOut();
    expect(await status(srv.url, headers)).toBe(401);
  });

  test("a revoked token stops working on its next request, on the API and on MCP", async () => {
    const u = await srv.user();
    const { id, token } = await u.tokens.create({ name: "revoked", scopes: ["api", "mcp:write"] });
    expect(await status(srv.url, bearer(token))).toBe(200);
    expect(await status(srv.url, bearer(token))).toBe(200);
    const mcpList = { method: "POST", headers: { ...bearer(token), "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) };
    expect((await fetch(`${srv.url}/api/mcp`, mcpList)).status).toBe(200);
    await u.tokens.revoke(id);
    expect(await status(srv.url, bearer(token))).toBe(401);
    const mcp = await fetch(`${srv.url}/api/mcp`, mcpList);
    expect(mcp.status).toBe(401);
    expect((await mcp.json()).error.data.code).toBe("UNAUTHORIZED");
  });

  test("another session of the same account keeps working after one signs out", async () => {
    const u = await srv.user();
    const other = new VektorClient({ baseUrl: srv.url });
    await other.auth.signIn({ email: u.email, password: PASSWORD });
    expect(await status(srv.url, cookieOf(other))).toBe(200);
    await u.auth.signOut();
    expect(await status(srv.url, cookieOf(other))).toBe(200);
  });

  test("a cached file list shows an upload and a deletion on the very next request", async () => {
    const u = await srv.user();
    const names = async () => (await u.files.list({ limit: 20 })).items.map((f) => f.filename);
    expect(await names()).toEqual([]);
    expect(await names()).toEqual([]); // now kept
    const { fileId } = await u.files.upload(new Blob(["one\n"]), { filename: "one.txt", mime: "text/plain" });
    expect(await names()).toEqual(["one.txt"]);
    await u.files.delete(fileId);
    expect(await names()).toEqual([]);
  });

  test("a changed setting is read back at once", async () => {
    const admin = await srv.admin();
    expect((await srv.anon().config.thresholds(["processing.browser_max_mb"]))["processing.browser_max_mb"]).toBe(512);
    await admin.admin.setConfig("platform_configs", { "processing.browser_max_mb": 77 });
    expect((await srv.anon().config.thresholds(["processing.browser_max_mb"]))["processing.browser_max_mb"]).toBe(77);
  });
});

// Lists are kept for a minute here: only the table's statement trigger (NOTIFY vektor_tables,
// heard by every process, the writing one included) can make a kept page show these writes.
describe("a change that only the table's trigger reports", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ READ_CACHE_MS: "60000" });
  });
  afterAll(() => srv?.close());

  /** A user with one upload whose file list page is kept (the only page kept), and a reader of that page. */
  async function keptList() {
    const u = await srv.user();
    const { fileId } = await u.files.upload(new Blob(["kept\n"]), { filename: "kept.txt", mime: "text/plain" });
    const names = async () => (await u.files.list({ limit: 20 })).items.map((f) => f.filename);
    const pagesKeptAfterReading = async () => {
      await names();
      return srv.services.reads.size;
    };
    srv.services.reads.changed("file");
    // Background statements on the table (the retention sweep) drop pages too: read until kept.
    await waitFor("the page to be kept", pagesKeptAfterReading, (n) => n > 0);
    expect(await names()).toEqual(["kept.txt"]);
    return { fileId, names };
  }

  test("a raw SQL write in this process reaches a kept file list", async () => {
    const { fileId, names } = await keptList();
    await srv.services.database.db.execute(drizzleSql`update "file" set "filename" = 'raw.txt' where "id" = ${fileId}`);
    await waitFor("the kept list to show the raw write", names, (n) => n[0] === "raw.txt");
  });

  // What a request that wrote awaits before it is answered: without it, over PostgreSQL, the
  // writer's own next request could still be answered from the page it just changed.
  test("once caught up, this process has heard the table changes committed before", async () => {
    let heard = 0;
    srv.services.changes.on("table", (table) => void (table === "workflow_approval" && heard++));
    // Many times: over PostgreSQL the notification often wins the race by itself.
    for (let i = 1; i <= 50; i++) {
      await srv.services.database.db.execute(drizzleSql`update "workflow_approval" set "status" = "status" where false`);
      await srv.services.changes.caughtUp();
      expect(heard).toBe(i);
    }
  });

  test.skipIf(!process.env.TEST_DATABASE_URL)("a write over another connection reaches a kept file list", async () => {
    const { fileId, names } = await keptList();
    const other = postgres(srv.services.env.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      await other`update "file" set "filename" = 'elsewhere.txt' where "id" = ${fileId}`;
    } finally {
      await other.end();
    }
    await waitFor("the kept list to show the other connection's write", names, (n) => n[0] === "elsewhere.txt");
  });
});

/** Seconds left in the current minute (the rate limit's window). */
const secondsLeftInMinute = () => 60 - (Date.now() % 60_000) / 1000;

describe.skipIf(!process.env.TEST_DATABASE_URL)("across two processes on one PostgreSQL", () => {
  const secret = "caches-test-secret-caches-test-secret-0123456789";
  let a: TestServer;
  let b: ReturnType<typeof Bun.spawn>;
  let bUrl: string;
  let bDir: string;

  beforeAll(async () => {
    a = await startTestServer({ BETTER_AUTH_SECRET: secret, RATE_LIMIT_SYNC_MS: "100" });
    bDir = mkdtempSync(join(tmpdir(), "vektor-caches-"));
    bUrl = `http://127.0.0.1:${await freePort()}`;
    const port = new URL(bUrl).port;
    const env = { DATABASE_URL: a.services.env.databaseUrl!, BETTER_AUTH_SECRET: secret, ROLE: "api", HOST: "127.0.0.1", PORT: port, PUBLIC_URL: bUrl, DATA_DIR: bDir, LOG_LEVEL: "warn", RATE_LIMIT_SYNC_MS: "100", READ_CACHE_MS: "60000" };
    b = await spawnServer(env, bUrl);
  }, 150_000);

  afterAll(async () => {
    b?.kill("SIGKILL");
    await b?.exited;
    await a?.close();
    if (bDir) rmSync(bDir, { recursive: true, force: true });
  });

  test("a session signed out in one process stops in the other within 2 s", async () => {
    const u = await a.user();
    const headers = cookieOf(u);
    expect(await status(bUrl, headers)).toBe(200);
    expect(await status(bUrl, headers)).toBe(200);
    await u.auth.signOut();
    expect(await status(a.url, headers)).toBe(401);
    await waitFor("process B to refuse the signed-out session", () => status(bUrl, headers), (s) => s === 401, 2000);
  });

  test("a token revoked in the other process stops here within 2 s", async () => {
    const u = await a.user();
    const { id, token } = await u.tokens.create({ name: "cross" });
    expect(await status(a.url, bearer(token))).toBe(200);
    expect(await status(a.url, bearer(token))).toBe(200);
    const viaB = new VektorClient({ baseUrl: bUrl, cookie: u.t.cookie! });
    await viaB.tokens.revoke(id);
    expect(await status(bUrl, bearer(token))).toBe(401);
    await waitFor("process A to refuse the revoked token", () => status(a.url, bearer(token)), (s) => s === 401, 2000);
  });

  // Process B keeps lists for a minute here: only the table's NOTIFY can make it see the upload.
  test("a file list kept by one process shows an upload made through the other within 2 s", async () => {
    const u = await a.user();
    const onB = new VektorClient({ baseUrl: bUrl, cookie: u.t.cookie! });
    const names = async () => (await onB.files.list({ limit: 20 })).items.map((f) => f.filename);
    expect(await names()).toEqual([]);
    expect(await names()).toEqual([]);
    await u.files.upload(new Blob(["two\n"]), { filename: "two.txt", mime: "text/plain" });
    await waitFor("process B to list the upload", names, (n) => n.includes("two.txt"), 2000);
  });

  test("a setting changed in one process applies in the other within 2 s", async () => {
    const admin = await a.admin();
    const read = async () => (await new VektorClient({ baseUrl: bUrl }).config.thresholds(["processing.browser_max_mb"]))["processing.browser_max_mb"];
    await read(); // process B has its copy
    await admin.admin.setConfig("platform_configs", { "processing.browser_max_mb": 123 });
    await waitFor("process B to read the new setting", read, (v) => v === 123, 2000);
  });

  // A worker answers no request: table changes would only cost it (and its backend) CPU, 7 per
  // 5-step workflow run. Settings still reach it: they set its limits.
  test("a ROLE=worker process hears setting changes, not table changes, and keeps no read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vektor-caches-worker-"));
    const w = await buildServices(readEnv({ DATABASE_URL: a.services.env.databaseUrl!, BETTER_AUTH_SECRET: secret, ROLE: "worker", DATA_DIR: dir, LOG_LEVEL: "warn" }));
    try {
      const heard = { table: 0, config: 0 };
      w.changes.on("table", () => void heard.table++);
      w.changes.on("config", () => void heard.config++);
      // Through process B: this test's process shares A's origin, whose notifications it ignores.
      const onB = (c: VektorClient) => new VektorClient({ baseUrl: bUrl, cookie: c.t.cookie! });
      await onB(await a.user()).files.upload(new Blob(["w\n"]), { filename: "w.txt", mime: "text/plain" });
      // Sent after the upload's commit, so a listener of both channels hears the upload first.
      await onB(await a.admin()).admin.setConfig("platform_configs", { "processing.browser_max_mb": 77 });
      // Ample for a busy machine: what is checked is the order of the notifications, not their pace.
      await waitFor("the worker to hear the setting", async () => heard.config, (n) => n > 0, 15_000);
      expect(heard.table).toBe(0);
      let loads = 0;
      const load = async () => ++loads;
      await w.reads.read("k", ["file"], load);
      await w.reads.read("k", ["file"], load);
      expect(loads).toBe(2);
    } finally {
      await w.changes.stop();
      await w.database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the rate limit counts one caller's requests in both processes", async () => {
    const admin = await a.admin();
    const u = await a.user();
    const headers = cookieOf(u);
    await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 30 });
    // Read as the admin: anonymous reads would share the loopback address's count with every other test.
    const adminOnB = new VektorClient({ baseUrl: bUrl, cookie: admin.t.cookie! });
    await waitFor("process B to read the limit", async () => (await adminOnB.config.thresholds(["ratelimit.per_minute"]))["ratelimit.per_minute"], (v) => v === 30);
    // Counts start again each minute: keep the whole exchange inside one.
    if (secondsLeftInMinute() < 20) await Bun.sleep(secondsLeftInMinute() * 1000 + 200);

    for (let i = 0; i < 20; i++) expect(await status(a.url, headers)).toBe(200);
    // Process A has shared its 20 (read straight from the database, so nothing here is timed).
    const sql = postgres(a.services.env.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      await waitFor("process A to share its counts", async () => Number((await sql`select coalesce(sum(count), 0) as n from rate_limit_count`)[0].n), (n) => n >= 20);
    } finally {
      await sql.end();
    }
    // Alone, process B would admit 30 more; together they admit 10 more, plus what B admits before its first sync.
    let admitted = 0;
    let refused: Response | null = null;
    for (let i = 0; i < 30 && !refused; i++) {
      const res = await fetch(`${bUrl}/api/files?limit=1`, { headers });
      await res.arrayBuffer();
      if (res.status === 429) refused = res;
      else admitted++;
      await Bun.sleep(50);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(admitted).toBeLessThan(20);
    await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 600 });
  }, 120_000);
});
