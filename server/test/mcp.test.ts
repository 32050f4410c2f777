/**
 * POST /api/mcp driven by the SDK's own Client and StreamableHTTPClientTransport against a real
 * server: every tool, every hint, anonymous vs token tools/list, and every refusal the issue
 * lists (raw fetch for the malformed JSON-RPC), each checked to create and charge nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, EmptyResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { eq } from "drizzle-orm";
import { apiToken } from "../src/db/schema";
import { makePdf } from "./fixtures";
import { startTestServer, waitFor, type TestServer } from "./harness";
import { isTerminalBatch, isTerminalRun } from "@vektor/shared/schemas/vocab";

let srv: TestServer;
const open: Client[] = [];
beforeAll(async () => {
  srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "2" });
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await srv.close();
});

type User = Awaited<ReturnType<TestServer["user"]>>;
type Page<T> = { items: T[]; nextCursor: string | null };
type BatchView = { batchId: string; status: string; total: number; done: number; failed: number; credits: number };

const ANON = ["list_tools", "ping"];
const ALL = ["create_batch", "list_batches", "list_tools", "list_workflows", "ping", "run_workflow"];

/** A connected SDK client (initialize done), anonymous or with `Authorization: Bearer <token>`. */
async function connect(token?: string): Promise<Client> {
  const client = new Client({ name: "vektor-test", version: "1.0.0" });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/api/mcp`), { requestInit: { headers } }));
  open.push(client);
  return client;
}

async function token(c: User, scopes: ("api" | "mcp:write")[]) {
  return (await c.tokens.create({ name: scopes.join("+"), scopes })).token;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** The contract code of an isError result (its text is the error envelope). */
function refusalCode(r: CallToolResult): string {
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const first = r.content[0];
  if (first?.type !== "text") throw new Error("refusal without text");
  const body = JSON.parse(first.text) as { ok: boolean; error: { code: string; message: string } };
  expect(body.ok).toBe(false);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.code;
}

/** The McpError (or transport error) a call throws. */
async function thrown(fn: () => Promise<unknown>): Promise<Error & { code?: number; data?: { code?: string } }> {
  try {
    await fn();
  } catch (e) {
    return e as Error & { code?: number; data?: { code?: string } };
  }
  throw new Error("expected the call to throw");
}

async function pdfs(c: User, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await c.files.upload(new Blob([await makePdf(1, `mcp ${i}`)]), { filename: `mcp${i}.pdf`, mime: "application/pdf" })).fileId);
  return ids;
}

const linear = (...types: string[]) =>
  JSON.stringify({
    nodes: types.map((type, i) => ({ id: `n${i}`, type, data: { type } })),
    edges: types.slice(1).map((_, i) => ({ source: `n${i}`, target: `n${i + 1}` })),
  });

async function workflow(c: User) {
  return c.t.call<{ id: string }>("POST", "/api/workflows", { name: "Compress", graphJson: linear("source.upload", "op.pdf.compress", "sink.download") });
}

/** Everything a refused call must leave as it was: balance, ledger, batches, the workflow's runs. */
async function snapshot(c: User, workflowId?: string) {
  return {
    credits: (await c.account()).credits,
    ledger: (await c.t.call<unknown[]>("GET", "/api/account/credits")).length,
    batches: (await c.t.call<Page<BatchView>>("GET", "/api/batch")).items.map((b) => b.batchId),
    runs: workflowId ? (await c.t.call<Page<{ runId: string }>>("GET", `/api/workflows/${workflowId}/runs`)).items.map((r) => r.runId) : [],
  };
}

/** A raw POST to /api/mcp (for what the SDK client would never send). */
async function raw(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as { jsonrpc: string; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: { code: string } } } | null };
}

describe("tools/list and hints", () => {
  test("anonymous: initialize names the server; tools/list shows exactly list_tools and ping", async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: "vektor", version: "1.0.0" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("mcp:write");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ANON);
    await client.ping();
  });

  test("a token sees what it may call: read tools with api, all six with mcp:write", async () => {
    const c = await srv.user();
    const reader = await connect(await token(c, ["api"]));
    expect((await reader.listTools()).tools.map((t) => t.name).sort()).toEqual(["list_batches", "list_tools", "list_workflows", "ping"]);
    const writeOnly = await connect(await token(c, ["mcp:write"]));
    expect((await writeOnly.listTools()).tools.map((t) => t.name).sort()).toEqual(ALL);
  });

  test("every tool has a title, input and output schemas, and its read-only / destructive hints", async () => {
    const c = await srv.user();
    const { tools } = await (await connect(await token(c, ["api", "mcp:write"]))).listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint, t.annotations?.idempotentHint, t.annotations?.openWorldHint]]));
    expect(hints).toEqual({
      list_tools: [true, false, true, false],
      ping: [true, false, true, false],
      list_batches: [true, false, true, false],
      list_workflows: [true, false, true, false],
      create_batch: [false, false, false, false],
      run_workflow: [false, false, false, false],
    });
    for (const t of tools) {
      expect(t.title?.length).toBeGreaterThan(0);
      expect(t.description?.length).toBeGreaterThan(0);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
    }
    const create = tools.find((t) => t.name === "create_batch")!;
    expect(create.inputSchema.required).toEqual(["type", "fileIds"]);
    expect(tools.find((t) => t.name === "run_workflow")!.inputSchema.required).toEqual(["workflowId", "fileIds"]);
  });
});

describe("the tools", () => {
  test("list_tools is the tools-index registry (and filters by family)", async () => {
    const client = await connect();
    const index = await srv.anon().t.call<{ slug: string; family: string }[]>("GET", "/api/config/tools-index");
    const all = await call(client, "list_tools");
    expect(all.isError).toBeFalsy();
    expect(all.structuredContent).toEqual({ tools: index });
    // The text block is the same JSON, for clients that read only text.
    expect(all.content[0]).toEqual({ type: "text", text: JSON.stringify({ tools: index }) });
    const pdf = await call(client, "list_tools", { family: "pdf" });
    expect(pdf.structuredContent).toEqual({ tools: index.filter((t) => t.family === "pdf") });
    expect(index.filter((t) => t.family === "pdf").length).toBeGreaterThan(0);
  });

  test("ping answers anonymously and tells a token's scopes", async () => {
    const anon = await call(await connect(), "ping");
    expect(anon.structuredContent).toMatchObject({ ok: true, version: "1.0.0", authenticated: false, scopes: [] });
    expect(Number.isNaN(Date.parse((anon.structuredContent as { time: string }).time))).toBe(false);
    const c = await srv.user();
    const withToken = await call(await connect(await token(c, ["api"])), "ping");
    expect(withToken.structuredContent).toMatchObject({ authenticated: true, scopes: ["api"] });
  });

  test("list_batches and list_workflows show the token owner's own, paged like the HTTP lists", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const [f1, f2] = await pdfs(c, 2);
    const b1 = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.compress", fileIds: [f1] });
    const b2 = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.compress", fileIds: [f2] });
    await other.t.call("POST", "/api/workflows", { name: "not mine", graphJson: linear("source.upload", "sink.download") });
    const w = await workflow(c);
    const client = await connect(await token(c, ["api"]));

    const batches = (await call(client, "list_batches")).structuredContent as Page<BatchView>;
    expect(batches.items.map((b) => b.batchId)).toEqual([b2.batchId, b1.batchId]);
    expect(batches.nextCursor).toBeNull();
    const first = (await call(client, "list_batches", { limit: 1 })).structuredContent as Page<BatchView>;
    expect(first.items.map((b) => b.batchId)).toEqual([b2.batchId]);
    const second = (await call(client, "list_batches", { limit: 1, cursor: first.nextCursor })).structuredContent as Page<BatchView>;
    expect(second.items.map((b) => b.batchId)).toEqual([b1.batchId]);

    const workflows = await call(client, "list_workflows");
    expect(workflows.structuredContent).toEqual(await c.t.call("GET", "/api/workflows"));
    expect((workflows.structuredContent as Page<{ id: string }>).items.map((x) => x.id)).toEqual([w.id]);
  });

  test("create_batch makes a real batch, charged as POST /api/batch, that completes", async () => {
    const c = await srv.user();
    const ids = await pdfs(c, 2);
    const before = (await c.account()).credits;
    const client = await connect(await token(c, ["mcp:write"]));
    const r = await call(client, "create_batch", { type: "pdf.compress", fileIds: ids, name: "from an agent" });
    expect(r.isError).toBeFalsy();
    const { batchId, credits } = r.structuredContent as { batchId: string; credits: number };
    expect(credits).toBe(1 + 1 * 2);
    expect((await c.account()).credits).toBe(before - 3);
    const ended = await waitFor("the batch completing", () => c.t.call<{ batch: BatchView; files: { outFileId: string | null }[] }>("GET", `/api/batch/${batchId}`), (d) => isTerminalBatch(d.batch.status), 120_000, 100);
    expect(ended.batch).toMatchObject({ status: "completed", total: 2, done: 2, failed: 0, credits: 3 });
    expect(ended.files.every((f) => f.outFileId)).toBe(true);
    const listed = (await call(client, "list_batches")).structuredContent as Page<BatchView & { name: string }>;
    expect(listed.items[0]).toMatchObject({ batchId, name: "from an agent", status: "completed" });
  });

  test("run_workflow starts a real run (trigger mcp), charged as POST /api/workflows/{id}/run", async () => {
    const c = await srv.user();
    const [file] = await pdfs(c, 1);
    const w = await workflow(c);
    const before = (await c.account()).credits;
    const r = await call(await connect(await token(c, ["api", "mcp:write"])), "run_workflow", { workflowId: w.id, fileIds: [file] });
    expect(r.isError).toBeFalsy();
    const { runId, credits } = r.structuredContent as { runId: string; credits: number };
    expect(credits).toBe(1 + 1 * 1);
    expect((await c.account()).credits).toBe(before - 2);
    const done = await waitFor("the run ending", () => c.t.call<{ run: { status: string; trigger: string; outputFileIds: string[] } }>("GET", `/api/workflows/runs/${runId}`), (d) => isTerminalRun(d.run.status), 120_000, 100);
    expect(done.run).toMatchObject({ status: "succeeded", trigger: "mcp" });
    expect(done.run.outputFileIds.length).toBe(1);
  });
});

describe("refusals create and charge nothing", () => {
  test("no token: the token tools are refused UNAUTHORIZED", async () => {
    const c = await srv.user();
    const [file] = await pdfs(c, 1);
    const w = await workflow(c);
    const before = await snapshot(c, w.id);
    const anon = await connect();
    expect(refusalCode(await call(anon, "list_batches"))).toBe("UNAUTHORIZED");
    expect(refusalCode(await call(anon, "list_workflows"))).toBe("UNAUTHORIZED");
    expect(refusalCode(await call(anon, "create_batch", { type: "pdf.compress", fileIds: [file] }))).toBe("UNAUTHORIZED");
    expect(refusalCode(await call(anon, "run_workflow", { workflowId: w.id, fileIds: [file] }))).toBe("UNAUTHORIZED");
    // Access is checked before arguments, as the HTTP guards run before validation.
    expect(refusalCode(await call(anon, "create_batch", { nonsense: true }))).toBe("UNAUTHORIZED");
    expect(await snapshot(c, w.id)).toEqual(before);
  });

  test("a session cookie is not an MCP credential", async () => {
    const c = await srv.user();
    const res = await c.t.fetch("/api/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_batches", arguments: {} } }),
    });
    const body = (await res.json()) as { result: CallToolResult };
    expect(res.status).toBe(200);
    expect(refusalCode(body.result)).toBe("UNAUTHORIZED");
  });

  test("a token without mcp:write: create_batch and run_workflow are refused FORBIDDEN", async () => {
    const c = await srv.user();
    const [file] = await pdfs(c, 1);
    const w = await workflow(c);
    const before = await snapshot(c, w.id);
    const reader = await connect(await token(c, ["api"]));
    expect(refusalCode(await call(reader, "create_batch", { type: "pdf.compress", fileIds: [file] }))).toBe("FORBIDDEN");
    expect(refusalCode(await call(reader, "run_workflow", { workflowId: w.id, fileIds: [file] }))).toBe("FORBIDDEN");
    expect(await snapshot(c, w.id)).toEqual(before);
  });

  test("arguments failing the tool's schema: VALIDATION_ERROR (the HTTP route's own rules)", async () => {
    const c = await srv.user();
    const [file] = await pdfs(c, 1);
    const w = await workflow(c);
    const before = await snapshot(c, w.id);
    const client = await connect(await token(c, ["api", "mcp:write"]));
    for (const args of [{}, { type: "pdf.compress" }, { type: "pdf.compress", fileIds: file }, { type: "pdf.compress", fileIds: [file], extra: 1 }, { type: "", fileIds: [file] }]) {
      expect(refusalCode(await call(client, "create_batch", args))).toBe("VALIDATION_ERROR");
    }
    // Past the schema, the service's own checks: unknown tool slug, bad params, no files.
    expect(refusalCode(await call(client, "create_batch", { type: "pdf.nope", fileIds: [file] }))).toBe("VALIDATION_ERROR");
    expect(refusalCode(await call(client, "create_batch", { type: "pdf.compress", fileIds: [] }))).toBe("VALIDATION_ERROR");
    expect(refusalCode(await call(client, "run_workflow", { workflowId: w.id }))).toBe("VALIDATION_ERROR");
    expect(refusalCode(await call(client, "run_workflow", { workflowId: w.id, fileIds: [file, file] }))).toBe("VALIDATION_ERROR");
    expect(refusalCode(await call(client, "list_batches", { limit: 0 }))).toBe("VALIDATION_ERROR");
    expect(refusalCode(await call(client, "list_tools", { family: 3 }))).toBe("VALIDATION_ERROR");
    // Someone else's ids answer NOT_FOUND, as over HTTP.
    const stranger = await srv.user();
    const [theirs] = await pdfs(stranger, 1);
    expect(refusalCode(await call(client, "create_batch", { type: "pdf.compress", fileIds: [theirs] }))).toBe("NOT_FOUND");
    expect(refusalCode(await call(client, "run_workflow", { workflowId: (await workflow(stranger)).id, fileIds: [] }))).toBe("NOT_FOUND");
    expect(await snapshot(c, w.id)).toEqual(before);
  });

  test("a batch over the plan's file limit: LIMIT_EXCEEDED", async () => {
    const admin = await srv.admin();
    const c = await srv.user();
    const ids = await pdfs(c, 3);
    const before = await snapshot(c);
    await admin.t.call("PUT", "/api/admin/config/batch_configs", { "batch.max_files_free": 2 });
    try {
      const r = await call(await connect(await token(c, ["mcp:write"])), "create_batch", { type: "pdf.compress", fileIds: ids });
      expect(refusalCode(r)).toBe("LIMIT_EXCEEDED");
    } finally {
      await admin.t.call("PUT", "/api/admin/config/batch_configs", { "batch.max_files_free": 20 });
    }
    expect(await snapshot(c)).toEqual(before);
  });

  test("without enough credits: INSUFFICIENT_CREDITS for create_batch and run_workflow", async () => {
    const admin = await srv.admin();
    const c = await srv.user();
    const ids = await pdfs(c, 2);
    const w = await workflow(c);
    const balance = (await c.account()).credits;
    await admin.t.call("POST", "/api/admin/credits", { email: c.email, amount: 1 - balance, reason: "test: leave one credit" });
    const before = await snapshot(c, w.id);
    expect(before.credits).toBe(1);
    const client = await connect(await token(c, ["mcp:write"]));
    expect(refusalCode(await call(client, "create_batch", { type: "pdf.compress", fileIds: ids }))).toBe("INSUFFICIENT_CREDITS");
    expect(refusalCode(await call(client, "run_workflow", { workflowId: w.id, fileIds: [ids[0]] }))).toBe("INSUFFICIENT_CREDITS");
    expect(await snapshot(c, w.id)).toEqual(before);
  });

  test("an unknown tool and an unknown method: JSON-RPC errors with NOT_FOUND", async () => {
    const client = await connect();
    const tool = await thrown(() => call(client, "drop_database"));
    expect(tool).toBeInstanceOf(McpError);
    expect(tool.code).toBe(-32602);
    expect(tool.data).toEqual({ code: "NOT_FOUND" });
    const method = await thrown(() => client.request({ method: "resources/list" }, EmptyResultSchema));
    expect(method).toBeInstanceOf(McpError);
    expect(method.code).toBe(-32601);
    expect(method.data).toEqual({ code: "NOT_FOUND" });
    const r = await raw({ jsonrpc: "2.0", id: 7, method: "sampling/whatever" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "MCP error -32601: Method not found: sampling/whatever", data: { code: "NOT_FOUND" } } });
  });

  test("an expired or revoked token: HTTP 401 with a JSON-RPC error UNAUTHORIZED, even for anonymous tools", async () => {
    const c = await srv.user();
    const expired = await c.tokens.create({ name: "short", scopes: ["api", "mcp:write"], expiresInDays: 1 });
    await srv.services.database.db.update(apiToken).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiToken.id, expired.id));
    const revoked = await c.tokens.create({ name: "gone", scopes: ["api", "mcp:write"] });
    const live = await connect(revoked.token);
    await c.t.call("DELETE", `/api/tokens/${revoked.id}`);
    const [file] = await pdfs(c, 1);
    const before = await snapshot(c);

    // The revoked token stops at once, on a client that had connected with it.
    const afterRevoke = await thrown(() => call(live, "create_batch", { type: "pdf.compress", fileIds: [file] }));
    expect(afterRevoke).toBeInstanceOf(StreamableHTTPError);
    expect(afterRevoke.code).toBe(401);
    expect(afterRevoke.message).toContain("UNAUTHORIZED");
    const atConnect = await thrown(() => connect(expired.token));
    expect(atConnect.code).toBe(401);

    for (const t of [expired.token, revoked.token, "vk_notarealtoken000000000000000000000000", "garbage"]) {
      const r = await raw({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ping", arguments: {} } }, { authorization: `Bearer ${t}` });
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toStartWith("Bearer");
      expect(r.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Unauthorized", data: { code: "UNAUTHORIZED" } } });
    }
    expect(await snapshot(c)).toEqual(before);
  });

  test("malformed JSON-RPC: not JSON, not 2.0, a batch, no method: 400 with VALIDATION_ERROR, nothing run", async () => {
    const c = await srv.user();
    const [file] = await pdfs(c, 1);
    const write = await token(c, ["mcp:write"]);
    const auth = { authorization: `Bearer ${write}` };
    const before = await snapshot(c);
    const create = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_batch", arguments: { type: "pdf.compress", fileIds: [file] } } };

    const notJson = await raw("{ not json", auth);
    expect(notJson.status).toBe(400);
    expect(notJson.body?.error).toMatchObject({ code: -32700, data: { code: "VALIDATION_ERROR" } });

    const huge = await raw({ ...create, params: { ...create.params, _meta: { pad: "x".repeat(1_100_000) } } }, auth);
    expect(huge.status).toBe(413);
    expect(huge.body?.error).toMatchObject({ code: -32600, data: { code: "PAYLOAD_TOO_LARGE" } });

    for (const version of ["1.0", undefined, 2]) {
      const r = await raw({ ...create, jsonrpc: version }, auth);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32600, message: 'Invalid Request: jsonrpc must be "2.0"', data: { code: "VALIDATION_ERROR" } } });
    }

    const batch = await raw([create, { ...create, id: 2 }], auth);
    expect(batch.status).toBe(400);
    expect(batch.body?.error).toMatchObject({ code: -32600, data: { code: "VALIDATION_ERROR" } });
    expect(batch.body?.error?.message).toContain("batches are not supported");

    for (const bad of [{ jsonrpc: "2.0", id: 3 }, { jsonrpc: "2.0", id: 3, method: 5 }, "42", "null"]) {
      const r = await raw(bad, auth);
      expect(r.status).toBe(400);
      expect(r.body?.error).toMatchObject({ code: -32600, data: { code: "VALIDATION_ERROR" } });
    }
    expect(await snapshot(c)).toEqual(before);

    // The same message, well formed, does run: the refusals above were about the envelope only.
    const ok = await raw(create, auth);
    expect(ok.status).toBe(200);
    expect((ok.body?.result as { structuredContent: { credits: number } }).structuredContent.credits).toBe(2);
  });

  test("a notification is accepted with 202; stateless answers carry no session id", async () => {
    const note = await raw({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.status).toBe(202);
    const init = await raw({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(init.body?.result).toMatchObject({ serverInfo: { name: "vektor" }, capabilities: { tools: {} } });
  });
});

describe("the HTTP edges", () => {
  test("GET and DELETE answer 405 with the SDK's stateless JSON-RPC error", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${srv.url}/api/mcp`, { method, headers: { accept: "application/json, text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Method not allowed." } });
    }
  });

  test("Host and Origin naming another site are refused (DNS-rebinding protection)", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const port = new URL(srv.url).port;
    const rebound = await raw(ping, { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body?.error).toMatchObject({ code: -32000, data: { code: "FORBIDDEN" } });
    const foreign = await raw(ping, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await raw(ping, { origin: "null" })).status).toBe(403);
    // This server's own names pass, whatever the port.
    const own: Record<string, string>[] = [{ origin: srv.url }, { host: `localhost:${port}`, origin: `http://localhost:${port}` }, {}];
    for (const headers of own) {
      const r = await raw(ping, headers);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    }
  });

  test("/openapi.json documents /api/mcp and stays a valid OpenAPI 3.1 document", async () => {
    const doc = await (await fetch(`${srv.url}/openapi.json`)).json();
    const mcp = doc.paths["/api/mcp"];
    expect(Object.keys(mcp).sort()).toEqual(["delete", "get", "post"]);
    expect(mcp.post.tags).toEqual(["MCP"]);
    expect(mcp.post.description).toContain("mcp:write");
    expect(mcp.post.security).toEqual([{}, { bearerAuth: [] }]);
    expect(Object.keys(mcp.post.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401", "403"]));
    expect(mcp.post.requestBody.content["application/json"].schema.properties.jsonrpc).toEqual({ const: "2.0", type: "string" });
    expect(Object.keys(mcp.get.responses)).toEqual(["405"]);
    const result = await new Validator().validate(doc);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 4000));
    expect(result.valid).toBe(true);
  });
});
