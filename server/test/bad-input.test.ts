/**
 * Defects the fuzz (fuzz.test.ts) stands guard over, each pinned by name: deep JSON anywhere a
 * caller sends it, text PostgreSQL cannot store, and Better Auth's refusals in the envelope.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linear } from "./graphs";
import { PASSWORD, startTestServer, type TestServer } from "./harness";

let srv: TestServer;
let cookie: string;
beforeAll(async () => {
  srv = await startTestServer();
  cookie = (await srv.user()).t.cookie!;
});
afterAll(() => srv.close());

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

async function post(path: string, body: string, headers: Record<string, string> = { cookie }) {
  const res = await fetch(`${srv.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: { code: string; message: string }; data?: unknown } };
}

describe("deep JSON", () => {
  test("a 1 MB body of nested arrays is a 400 VALIDATION_ERROR naming the limit, and the server goes on", async () => {
    const text = deep(512 * 1024);
    expect(text.length).toBe(1024 * 1024);
    const res = await post("/api/workflows/validate", text);
    expect(res).toEqual({ status: 400, body: { ok: false, error: { code: "VALIDATION_ERROR", message: "JSON bodies may nest arrays and objects at most 64 levels deep" } } });
    expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
  });

  test("the JSON inside graphJson and paramsJson is capped the same way", async () => {
    for (const [path, body] of [["/api/workflows/validate", {}], ["/api/workflows", { name: "deep" }]] as const) {
      const res = await post(path, JSON.stringify({ ...body, graphJson: deep(10_000) }));
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: "VALIDATION_ERROR", message: "graphJson may nest arrays and objects at most 64 levels deep" });
    }
    const graphJson = linear(["in", "source.upload"], ["out", "sink.download"]);
    const params = await post("/api/workflows", JSON.stringify({ name: "deep", graphJson, paramsJson: `{"a":${deep(10_000)}}` }));
    expect(params.body.error).toEqual({ code: "VALIDATION_ERROR", message: "paramsJson may nest arrays and objects at most 64 levels deep" });
  });

  test("an MCP message and a webhook body nested too deep are refused as bad input", async () => {
    const mcp = await post("/api/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deep(10_000)}}`, { accept: "application/json, text/event-stream" });
    expect(mcp.status).toBe(400);
    expect(mcp.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32700, data: { code: "VALIDATION_ERROR" } } });
    const owner = await srv.user();
    const wf = await owner.workflows.create({ name: "hooked", graphJson: linear(["in", "source.upload"], ["out", "sink.download"]) });
    await owner.workflows.triggers.put(wf.id, { type: "webhook", config: {} });
    const hook = await post(`/api/workflows/${wf.id}/hook`, `{"secret":"x","fileIds":${deep(10_000)}}`, {});
    expect(hook.body.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("text PostgreSQL cannot store", () => {
  test("a NUL or a lone surrogate in a body, and %00 in a path or query, are a 400 VALIDATION_ERROR, not a 500", async () => {
    expect((await post("/api/tokens", '{"name":"a\\u0000b"}')).body.error?.code).toBe("VALIDATION_ERROR");
    expect((await post("/api/files/confirm", '{"fileId":"\\ud800"}')).body.error?.code).toBe("VALIDATION_ERROR");
    for (const url of ["/api/files/%00", "/api/workflows/x%00y/estimate", "/api/files?cursor=%00"]) {
      const res = await fetch(`${srv.url}${url}`, { method: url.includes("estimate") ? "POST" : "GET", headers: { cookie } });
      expect({ url, status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code }).toEqual({ url, status: 400, code: "VALIDATION_ERROR" });
    }
    const graphJson = linear(["in", "source.upload", { prefix: "a\u0000" }], ["out", "sink.download"]);
    expect((await post("/api/workflows", JSON.stringify({ name: "nul", graphJson }))).body.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("Better Auth's refusals", () => {
  test("are the error envelope with the catalog's codes", async () => {
    const c = await srv.user();
    const headers = { origin: srv.url };
    const wrong = await post("/api/auth/sign-in/email", JSON.stringify({ email: c.email, password: "wrong password!" }), headers);
    expect(wrong).toEqual({ status: 401, body: { ok: false, error: { code: "UNAUTHORIZED", message: "Invalid email or password" } } });
    const again = await post("/api/auth/sign-up/email", JSON.stringify({ name: "again", email: c.email, password: PASSWORD }), headers);
    expect(again.status).toBe(400);
    expect(again.body.error?.code).toBe("VALIDATION_ERROR");
    const typed = await post("/api/auth/sign-in/email", JSON.stringify({ email: 5 }), headers);
    expect(typed.body).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
  });
});
