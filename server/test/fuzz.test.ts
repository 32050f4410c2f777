/**
 * No input breaks it: a property-based fuzz (fast-check) of every operation the served
 * /openapi.json describes, as an anonymous caller, a user, an admin and a bearer token of each
 * scope. It asserts never a 5xx; every JSON answer the error envelope with a code of the catalog
 * (or a success); no stack trace or file path in any body; no success for another user's id;
 * /api/health answering after each operation; and a __proto__ body changing no other object.
 *
 * The seed is fixed (printed; FUZZ_SEED reproduces a run) and FUZZ_RUNS sets the generated
 * requests per operation, beside a fixed set of edge cases each operation always gets.
 * FUZZ_ONLY=<text> fuzzes only the operations whose "METHOD /path" contains it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assertNoPoisoning } from "@fast-check/poisoning";
import { ERROR_CODES } from "@vektor/shared/errors";
import fc from "fast-check";
import { connect } from "node:net";
import { makePdf } from "./fixtures";
import { linear } from "./graphs";
import { startTestServer, type TestServer } from "./harness";
import { DEEP, encodeSegment, OUT_OF_RANGE, PROTO, RAW_SEGMENTS, requestsFor, type CallerName, type FuzzRequest, type Operation } from "./fuzz/requests";
import { setHints, type JsonSchema } from "./fuzz/schema-arbitrary";

/**
 * Settings the fuzz never writes: the rate limit (the fuzz lifts it), what would let the service
 * reach other hosts (allowed hosts, an SMTP server), and retention (a sweep would take the other
 * user's files the isolation check looks for).
 */
const UNSAFE_KEYS = new Set(["ratelimit.per_minute", "net.allow_hosts", "email.smtp_url", "retention.upload_hours", "retention.output_hours"]);

const SEED = Number(process.env.FUZZ_SEED ?? 18_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const ONLY = process.env.FUZZ_ONLY;
/** Longest any one answer may take (a 1 MiB body on a busy 2-core machine stays far below it). */
const ANSWER_MS = 30_000;

let srv: TestServer;
let ops: Operation[] = [];
const headersOf = {} as Record<CallerName, Record<string, string>>;
/** Another user's resources, one of each kind: their ids are the foreign ids. */
const victim = {} as Record<"file" | "workflow" | "version" | "trigger" | "template" | "token" | "batch" | "run" | "job", string>;
let victimClient: Awaited<ReturnType<TestServer["user"]>>;
let victimToken = "";
let ownIds: string[] = [];

type Doc = { paths: Record<string, Record<string, { parameters?: Operation["params"]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> };

beforeAll(async () => {
  console.log(`[fuzz] seed ${SEED} (FUZZ_SEED), ${RUNS} generated requests per operation (FUZZ_RUNS)`);
  srv = await startTestServer({ TOOL_WORKERS: "1", JOB_POLL_MS: "200" });
  const admin = await srv.admin();
  await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 1_000_000 });
  const user = await srv.user();
  const api = await user.tokens.create({ name: "fuzz api", scopes: ["api"] });
  const mcp = await user.tokens.create({ name: "fuzz mcp", scopes: ["mcp:write"] });
  headersOf.anonymous = {};
  headersOf.user = { cookie: user.t.cookie! };
  headersOf.admin = { cookie: admin.t.cookie! };
  headersOf["token:api"] = { authorization: `Bearer ${api.token}` };
  headersOf["token:mcp:write"] = { authorization: `Bearer ${mcp.token}` };
  await makeVictim();
  ownIds = await makeOwn(user);
  const slugs = (await user.tools.index()).map((t) => t.slug);
  const graphs = [
    linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]),
    linear(["in", "source.upload"], ["a", "logic.approval", { timeoutSeconds: 60 }], ["out", "sink.zip", { name: "all.zip" }]),
    linear(["in", "source.upload"], ["w", "op.workflow", { workflowId: ownIds[1] }], ["out", "sink.download"]),
    linear(["in", "source.upload", { fileIds: [ownIds[0]] }], ["r", "op.pdf.rotate", { degrees: 90 }], ["f", "logic.filter", { suffix: ".pdf" }], ["out", "sink.rename", { pattern: "{name}-x" }]),
  ];
  setHints({ ids: ownIds, types: slugs, graphJson: graphs, paramsJson: ["{}", JSON.stringify({ notifyUrl: "http://127.0.0.1:9/done", notifySecret: "fuzz-secret-1" }), JSON.stringify({ notifySecret: "short" })] });
  const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as Doc;
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ method, path, params: op.parameters ?? [], body: op.requestBody?.content?.["application/json"]?.schema })),
  );
  // The configuration body is documented as any object: give it the real keys, so values reach their checks.
  const config = (await admin.admin.config()) as Record<string, Record<string, unknown>>;
  const keys = Object.values(config).flatMap((group) => Object.keys(group)).filter((k) => !UNSAFE_KEYS.has(k));
  const put = ops.find((o) => o.path === "/api/admin/config/{group}")!;
  put.body = { type: "object", properties: Object.fromEntries(keys.map((k) => [k, {}])) };
  if (ONLY) ops = ops.filter((o) => `${o.method.toUpperCase()} ${o.path}`.includes(ONLY));
}, 120_000);
afterAll(async () => {
  const rows = [...seen].map(([op, c]) => `${op.padEnd(60)} ${["2xx", "3xx", "4xx", "5xx"].map((k) => String(c[k] ?? 0).padStart(5)).join(" ")}`);
  console.log(`[fuzz] answers per operation${" ".repeat(35)}   2xx   3xx   4xx   5xx\n${rows.join("\n")}`);
  await srv.close();
});

/** The signed-in caller's own resources: generated ids and paths mix them in to reach the handlers' real work. */
async function makeOwn(c: Awaited<ReturnType<TestServer["user"]>>): Promise<string[]> {
  const files = await Promise.all([1, 2, 3].map(async (i) => (await c.files.upload(new Blob([await makePdf(1)]), { filename: `own${i}.pdf`, mime: "application/pdf" })).fileId));
  const wf = await c.workflows.create({ name: "own", graphJson: linear(["in", "source.upload"], ["a", "logic.approval", { timeoutSeconds: 600 }], ["out", "sink.download"]) });
  const trigger = (await c.workflows.triggers.put(wf.id, { type: "watch", config: { suffix: ".never" } })).id;
  const template = (await c.workflows.templates.create({ name: "own", graphJson: wf.graphJson })).id;
  const token = (await c.tokens.create({ name: "spare" })).id;
  const batch = (await c.batches.create({ type: "pdf.compress", fileIds: [files[0]] })).batchId;
  const run = (await c.workflows.run(wf.id, [files[1]])).runId;
  const job = (await c.t.call<{ jobId: string }>("POST", "/api/files", { type: "pdf.compress", fileIds: [files[2]] })).jobId;
  return [files[0], wf.id, files[1], files[2], wf.versionId, trigger, template, token, batch, run, job];
}

async function makeVictim() {
  victimClient = await srv.user();
  const c = victimClient;
  victim.file = (await c.files.upload(new Blob([await makePdf(1)]), { filename: "victim.pdf", mime: "application/pdf" })).fileId;
  const wf = await c.workflows.create({ name: "victim", graphJson: linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]) });
  [victim.workflow, victim.version] = [wf.id, wf.versionId];
  victim.trigger = (await c.workflows.triggers.put(wf.id, { type: "webhook", config: {} })).id;
  victim.template = (await c.workflows.templates.create({ name: "victim", graphJson: wf.graphJson })).id;
  const token = await c.tokens.create({ name: "victim" });
  [victim.token, victimToken] = [token.id, token.token];
  victim.batch = (await c.batches.create({ type: "pdf.compress", fileIds: [victim.file] })).batchId;
  victim.run = (await c.workflows.run(wf.id, [victim.file])).runId;
  victim.job = (await c.t.call<{ jobId: string }>("POST", "/api/files", { type: "pdf.compress", fileIds: [victim.file] })).jobId;
}

/** What the fuzz must never see in a body: a stack frame or a path of the machine. */
const LEAK = /\n\s+at .+:\d+|\bat .+\.(ts|js|mjs):\d+|\/(work|home|root|tmp|usr|var)\/[\w.-]+\/|node_modules|[A-Za-z]:\\\\|file:\/\//;
const RAW_DOCUMENTS = new Set(["/openapi.json"]);
const CATALOG = new Set<string>(ERROR_CODES);

/** Answers seen per operation and status class, printed at the end: how far past validation the fuzz got. */
const seen = new Map<string, Record<string, number>>();
const opKey = (req: FuzzRequest) => `${req.method} ${req.op}`;

function count(req: FuzzRequest, status: number) {
  const row = seen.get(opKey(req)) ?? {};
  const cls = `${Math.floor(status / 100)}xx`;
  row[cls] = (row[cls] ?? 0) + 1;
  seen.set(opKey(req), row);
}

/** Sends one request; returns what is wrong with its answer, or null. */
async function send(req: FuzzRequest): Promise<string | null> {
  const headers: Record<string, string> = { ...headersOf[req.caller], ...req.headers };
  if (req.contentType) headers["content-type"] = req.contentType;
  let res: Response;
  try {
    res = await fetch(`${srv.url}${req.url}`, { method: req.method, headers, body: req.body as Uint8Array<ArrayBuffer> | null, signal: AbortSignal.timeout(ANSWER_MS), redirect: "manual" });
  } catch (e) {
    return `no answer: ${(e as Error).message}`;
  }
  count(req, res.status);
  return judge(req, res);
}

async function judge(req: FuzzRequest, res: Response): Promise<string | null> {
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) {
    await res.body?.cancel();
    return res.status >= 500 ? `status ${res.status}` : req.foreign && res.ok ? "a stream of another user's resource" : null;
  }
  const text = await res.text();
  // Bun's HTTP parser refuses a request line and headers over 16 KiB before the application sees them.
  if (res.status === 431 && text === "" && headBytes(req) > 8 * 1024) return null;
  if (res.status >= 500) return `status ${res.status}: ${text.slice(0, 300)}`;
  if (LEAK.test(text)) return `a stack trace or path in the body: ${text.match(LEAK)?.[0]} in ${text.slice(0, 300)}`;
  if (req.foreign && res.ok) return `another user's id answered ${res.status}: ${text.slice(0, 200)}`;
  const path = req.url.split("?")[0];
  if (RAW_DOCUMENTS.has(path) && res.ok) return null;
  if (!type.includes("json")) return res.status >= 400 ? `a ${res.status} that is not JSON (${type}): ${text.slice(0, 200)}` : null;
  let body: { ok?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown }; jsonrpc?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return `JSON that does not parse: ${text.slice(0, 200)}`;
  }
  if (path === "/api/mcp" && body.jsonrpc === "2.0") {
    const code = (body.error?.data as { code?: unknown } | undefined)?.code;
    return code === undefined || CATALOG.has(String(code)) ? null : `JSON-RPC error with code ${String(code)} outside the catalog`;
  }
  if (res.ok && (body.ok === true || path.startsWith("/api/auth/"))) return null;
  if (body.ok !== false || !body.error) return `${res.status} is not the error envelope: ${text.slice(0, 200)}`;
  const keys = Object.keys(body.error).sort().join(",");
  if (keys !== "code,message" || typeof body.error.message !== "string") return `envelope error has ${keys}: ${text.slice(0, 200)}`;
  if (!CATALOG.has(String(body.error.code))) return `code ${String(body.error.code)} is not in the catalog`;
  return null;
}

const headBytes = (req: FuzzRequest) => req.url.length + Object.entries({ ...headersOf[req.caller], ...req.headers }).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);

async function healthy(): Promise<boolean> {
  const res = await fetch(`${srv.url}/api/health`, { signal: AbortSignal.timeout(ANSWER_MS) }).catch(() => null);
  return res?.status === 200;
}

const describeReq = (r: FuzzRequest) => `${r.method} ${r.url.slice(0, 200)} as ${r.caller}, ${r.label}, content-type ${r.contentType}, ${r.body?.byteLength ?? 0} bytes`;

/** The edge cases every operation gets whatever the seed: one each, as a signed-in user. */
function fixedCases(op: Operation): FuzzRequest[] {
  const path = op.path.replace(/\{[^}]+\}/g, (m) => (/id\}$/i.test(m) ? encodeSegment(victim.workflow) : "x"));
  const base = { caller: "user" as const, method: op.method.toUpperCase(), op: op.path, url: path, foreign: /id\}/i.test(op.path), headers: {} };
  const urls = [
    ...RAW_SEGMENTS.filter(() => op.path.includes("{")).map((segment) => ({ ...base, foreign: false, url: op.path.replace(/\{[^}]+\}/g, segment), label: `path ${segment}` })),
    ...op.params.filter((p) => p.in === "query").flatMap((p) => OUT_OF_RANGE.map((v) => ({ ...base, url: `${path}?${p.name}=${v === "%FF" ? v : encodeSegment(v)}`, label: `query ${p.name}=${v.slice(0, 12)}` }))),
  ].map((r) => ({ ...r, contentType: null, body: null }));
  if (op.method === "get") return urls;
  const key = Object.keys(op.body?.properties ?? {})[0] ?? "x";
  const bodies: [string, string | Uint8Array, string | null][] = [
    ["10k deep body", DEEP, "application/json"],
    [`10k deep ${key}`, `{"${key}":${DEEP}}`, "application/json"],
    ["1e309", `{"${key}":1e309}`, "application/json"],
    ["-0", `{"${key}":-0}`, "application/json"],
    ["lone surrogate escape", `{"${key}":"\\ud800"}`, "application/json"],
    ["NUL", `{"${key}":"a\\u0000b"}`, "application/json"],
    ["__proto__", `{"__proto__":${PROTO}}`, "application/json"],
    ["constructor.prototype", `{"constructor":{"prototype":${PROTO}}}`, "application/json"],
    ["non-UTF-8 bytes", Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d]), "application/json"],
    ["empty body", "", "application/json"],
    ["JSON without a content type", "{}", null],
    ["form content type", "a=1&b=2", "application/x-www-form-urlencoded"],
    ["multipart without boundary", "--x\r\n\r\n", "multipart/form-data"],
  ];
  return [...urls, ...bodies.map(([label, body, contentType]) => ({ ...base, label, contentType, body: typeof body === "string" ? new TextEncoder().encode(body) : body }))];
}

/**
 * Raw HTTP over a socket, for what fetch will not send: a Content-Length that lies. Resolves the
 * answer's status, or null when the server (rightly) waits for bytes that never come.
 */
function rawStatus(head: string, body: string, waitMs = 1500): Promise<number | null> {
  const port = Number(new URL(srv.url).port);
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    const done = (v: number | null) => {
      socket.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), waitMs);
    socket.on("data", (d) => {
      got += d.toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      if (m) {
        clearTimeout(timer);
        done(Number(m[1]));
      }
    });
    socket.on("error", () => (clearTimeout(timer), done(null)));
    socket.write(head + body);
  });
}

/**
 * Operations fuzzed after the check of the other user's resources: a retention sweep "as of" a
 * generated date in the future rightly deletes every upload, the other user's among them.
 */
const LAST = new Set(["/api/admin/system/retention"]);

/** Fuzzes `list`: its fixed cases and RUNS generated requests each, then a health check; returns what went wrong. */
async function fuzz(list: Operation[]): Promise<string[]> {
  const failures: string[] = [];
  for (const op of list) {
    const label = `${op.method.toUpperCase()} ${op.path}`;
    for (const req of fixedCases(op)) {
      const problem = await send(req);
      if (problem) failures.push(`${label}: ${describeReq(req)}: ${problem}`);
    }
    const foreignIds = { foreign: Object.values(victim), own: ownIds };
    // Signing out the fuzz's own sessions would leave the rest of the run anonymous.
    const callers: CallerName[] = op.path === "/api/auth/sign-out" ? ["anonymous", "token:api", "token:mcp:write"] : ["anonymous", "user", "admin", "token:api", "token:mcp:write"];
    const result = await fc.check(
      fc.asyncProperty(requestsFor(op, foreignIds, callers), async (req) => {
        const problem = await send(req);
        if (problem) throw new Error(`${describeReq(req)}: ${problem}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (result.failed) failures.push(`${label}: ${String((result.errorInstance as Error)?.message ?? result.errorInstance).slice(0, 800)} (FUZZ_SEED=${SEED})`);
    if (!(await healthy())) failures.push(`${label}: /api/health did not answer 200 after it`);
  }
  return failures;
}

describe(`fuzz every operation of /openapi.json (seed ${SEED})`, () => {
  test("the document lists the operations to fuzz", () => {
    expect(ops.length).toBeGreaterThan(ONLY ? 0 : 60);
    if (!ONLY) expect(ops.some((o) => o.path === "/openapi.json")).toBe(true);
  });

  test("every operation: fixed edge cases and generated requests, never a 5xx, a leak, a foreign success or an answer outside the catalog", async () => {
    expect(await fuzz(ops.filter((o) => !LAST.has(o.path)))).toEqual([]);
  }, 600_000);

  test("a Content-Length that lies: a longer claim waits or refuses, a shorter one is read as declared, neither is a 5xx", async () => {
    const cookie = headersOf.user.cookie;
    const host = new URL(srv.url).host;
    const body = '{"graphJson":"{}"}';
    const head = (length: number | string) => `POST /api/workflows/validate HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
    for (const length of [body.length + 100, body.length - 5, 0, 10 * 1024 * 1024, "99999999999999999999", "-1", "abc"]) {
      const status = await rawStatus(head(length), body);
      expect({ length, status: status !== null && status >= 500 ? status : "ok" }).toEqual({ length, status: "ok" });
    }
    expect(await healthy()).toBe(true);
  });

  test("a __proto__ or constructor body changes no other object: not the caller's role or credits, not the server's prototypes", async () => {
    const before = await (await fetch(`${srv.url}/api/account`, { headers: headersOf.user })).json();
    for (const op of ops.filter((o) => o.body)) {
      const path = op.path.replace(/\{[^}]+\}/g, "x");
      for (const text of [`{"__proto__":${PROTO}}`, `{"constructor":{"prototype":${PROTO}}}`, `{"a":{"__proto__":${PROTO}},"__proto__":{"__proto__":${PROTO}}}`]) {
        await fetch(`${srv.url}${path}`, { method: op.method.toUpperCase(), headers: { ...headersOf.user, "content-type": "application/json" }, body: text });
      }
    }
    const after = await (await fetch(`${srv.url}/api/account`, { headers: headersOf.user })).json();
    expect(after.data.role).toBe("user");
    expect(after.data.credits).toBeLessThanOrEqual(before.data.credits);
    expect((await fetch(`${srv.url}/api/admin/config`, { headers: headersOf.user })).status).toBe(403);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(({} as Record<string, unknown>).credits).toBeUndefined();
    assertNoPoisoning({ ignoredRootRegex: /^(?!Object$|Array$|Function$|String$|Number$|Boolean$|JSON$)/ });
  });

  test("the other user's resources came through the fuzz untouched", async () => {
    const c = victimClient;
    expect((await c.files.get(victim.file)).status).toBe("UPLOADED");
    expect((await c.workflows.get(victim.workflow)).versionId).toBe(victim.version);
    expect((await c.workflows.triggers.list(victim.workflow)).map((t) => t.id)).toEqual([victim.trigger]);
    expect((await c.workflows.templates.list()).map((t) => t.id)).toContain(victim.template);
    expect((await fetch(`${srv.url}/api/account`, { headers: { authorization: `Bearer ${victimToken}` } })).status).toBe(200);
    expect((await c.batches.get(victim.batch)).batch.status).not.toBe("cancelled");
    expect((await c.workflows.runDetail(victim.run)).run.status).not.toBe("cancelled");
  });

  test("then the operations that may rightly touch every user's data", async () => {
    expect(await fuzz(ops.filter((o) => LAST.has(o.path)))).toEqual([]);
  }, 300_000);

  test("the generated requests get past validation: most operations answered a success at least once", () => {
    if (ONLY) return;
    const succeeded = [...seen.values()].filter((c) => (c["2xx"] ?? 0) > 0).length;
    expect(succeeded).toBeGreaterThan(ops.length / 2);
  });
});
