/**
 * Watching runs (issue 21, server side) over real HTTP: the caller's runs list with its filters
 * and pages, the approvals inbox with the files each approval gates, approve's refusals that say
 * why, and a run's event stream: live to the end, resumed with Last-Event-ID (nothing lost,
 * nothing repeated), and, on PostgreSQL, fed by another process's worker.
 */
import { VektorClient } from "@vektor/shared/client";
import type { RunEvent, RunDetail } from "@vektor/shared/schemas/workflow";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePdf } from "./fixtures";
import { linear } from "./graphs";
import { expectApiError, freePort, spawnServer, startTestServer, waitFor, type TestServer } from "./harness";

type Client = Awaited<ReturnType<TestServer["user"]>>;

const approvalGraph = (timeoutSeconds?: number) => linear(["in", "source.upload"], ["ok", "logic.approval", timeoutSeconds ? { timeoutSeconds } : {}], ["c", "op.pdf.compress"], ["out", "sink.download"]);
const plainGraph = linear(["in", "source.upload"], ["out", "sink.download"]);

async function pdf(c: Client, name = "doc.pdf") {
  return (await c.files.upload(new Blob([await makePdf(2, name)]), { filename: name, mime: "application/pdf" })).fileId;
}

/** Starts a run of `graphJson` and waits until it waits for its approval. */
async function waitingRun(c: Client, fileIds: string[] = [], name = "Needs a yes") {
  const w = await c.workflows.create({ name, graphJson: approvalGraph() });
  const { runId } = await c.workflows.run(w.id, fileIds);
  await c.workflows.waitFor(runId, { until: ["waiting_approval"] });
  return { workflowId: w.id, runId };
}

/** Every event of the stream until it ends (or `stopAfter` events). */
async function collect(c: Client, runId: string, opts: { lastEventId?: string; stopAfter?: number; onEvent?: (e: RunEvent) => Promise<void> } = {}) {
  const out: RunEvent[] = [];
  for await (const e of c.workflows.runEvents(runId, { lastEventId: opts.lastEventId })) {
    out.push(e);
    await opts.onEvent?.(e);
    if (out.length === opts.stopAfter) break;
  }
  return out;
}

/** The run and steps as events leave them, applied in order: what a page following the stream shows. */
function applied(events: RunEvent[]) {
  let run: RunEvent["data"] | null = null;
  const steps = new Map<string, RunEvent["data"]>();
  for (const e of events) {
    if (e.event === "run") run = e.data;
    else steps.set(e.data.nodeId, e.data);
  }
  return { run, steps };
}

function expectIncreasingIds(events: RunEvent[]) {
  const ids = events.map((e) => Number(e.id));
  expect(ids.every((id, i) => Number.isSafeInteger(id) && (i === 0 || id > ids[i - 1]))).toBe(true);
}

/** The events, applied, equal the run's detail as GET answers it. */
function expectMatchesDetail(events: RunEvent[], detail: RunDetail) {
  const { run, steps } = applied(events);
  expect(run).toEqual(detail.run);
  expect(new Map(detail.steps.map((s) => [s.nodeId, s]))).toEqual(steps as Map<string, RunDetail["steps"][number]>);
}

/** The stream's bytes up to the end of its `n`th event, then a network error. */
function cutAfterEvents(body: ReadableStream<Uint8Array>, n: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  let seen = 0;
  return new ReadableStream({
    async pull(ctl) {
      const { done, value } = await reader.read();
      if (done) return ctl.close();
      const text = dec.decode(value, { stream: true });
      let cut = -1;
      for (let at = text.indexOf("\n\n"); at >= 0; at = text.indexOf("\n\n", at + 2)) {
        if (!text.slice(0, at).split("\n\n").at(-1)!.startsWith(":") && ++seen === n) {
          cut = at + 2;
          break;
        }
      }
      if (cut < 0) return ctl.enqueue(value);
      ctl.enqueue(enc.encode(text.slice(0, cut)));
      await reader.cancel();
      ctl.error(new TypeError("connection reset"));
    },
  });
}

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "2", SSE_HEARTBEAT_MS: "200" });
});
afterAll(() => srv?.close());

describe("GET /api/workflows/runs", () => {
  test("every workflow's runs, newest first, with workflowName; filtered by status and workflow; paged", async () => {
    const c = await srv.user();
    const plain = await c.workflows.create({ name: "Plain", graphJson: plainGraph });
    const done1 = (await c.workflows.runAndWait(plain.id, [])).run.runId;
    const waiting = await waitingRun(c, [], "Gated");
    const done2 = (await c.workflows.runAndWait(plain.id, [])).run.runId;

    const all = await c.workflows.runs.list();
    expect(all.items.map((r) => r.runId)).toEqual([done2, waiting.runId, done1]);
    expect(all.items.map((r) => r.workflowName)).toEqual(["Plain", "Gated", "Plain"]);
    expect(all.nextCursor).toBeNull();

    expect((await c.workflows.runs.list({ status: "succeeded" })).items.map((r) => r.runId)).toEqual([done2, done1]);
    expect((await c.workflows.runs.list({ status: "waiting_approval" })).items.map((r) => r.runId)).toEqual([waiting.runId]);
    expect((await c.workflows.runs.list({ status: "failed" })).items).toEqual([]);
    expect((await c.workflows.runs.list({ workflowId: waiting.workflowId })).items.map((r) => r.runId)).toEqual([waiting.runId]);
    expect((await c.workflows.runs.list({ workflowId: plain.id, status: "succeeded", limit: 1 })).items.map((r) => r.runId)).toEqual([done2]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await c.workflows.runs.list({ limit: 1, cursor });
      expect(page.items.length).toBe(1);
      seen.push(page.items[0].runId);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([done2, waiting.runId, done1]);

    // The same item shape as a workflow's own list.
    const own = await c.workflows.runs(plain.id);
    expect(own.items[0]).toEqual({ ...all.items[0], workflowName: undefined } as never);
  });

  test("another user's runs are not listed; their workflowId is a 404; bad filters are 400", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const theirs = await other.workflows.create({ name: "Theirs", graphJson: plainGraph });
    await other.workflows.runAndWait(theirs.id, []);
    expect((await c.workflows.runs.list()).items).toEqual([]);
    await expectApiError(() => c.workflows.runs.list({ workflowId: theirs.id }), "NOT_FOUND", 404);
    await expectApiError(() => c.workflows.runs.list({ workflowId: "wf_nope" }), "NOT_FOUND", 404);
    await expectApiError(() => c.workflows.runs.list({ status: "done" as never }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.runs.list({ cursor: "nonsense" }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.runs.list({ limit: 0 }), "VALIDATION_ERROR", 400);
    await expectApiError(() => srv.anon().workflows.runs.list(), "UNAUTHORIZED", 401);
  });
});

describe("GET /api/workflows/approvals", () => {
  test("pending approvals with their run, node and the files they gate; decided ones under decided and all; paged", async () => {
    const c = await srv.user();
    const fileId = await pdf(c, "plan.pdf");
    const first = await waitingRun(c, [fileId], "Review plans");
    const second = await waitingRun(c, [], "Review nothing");

    const pending = await c.workflows.approvals.list();
    expect(pending.items.map((a) => a.runId)).toEqual([second.runId, first.runId]);
    const item = pending.items[1];
    expect(item).toMatchObject({ runId: first.runId, workflowId: first.workflowId, workflowName: "Review plans", nodeId: "ok", nodeTitle: "Approval", status: "pending", decision: null, note: null, decidedAt: null });
    expect(item.files).toEqual([{ fileId, name: "plan.pdf", sizeBytes: expect.any(Number), format: "pdf" }]);
    expect(item.files[0].sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(item.expiresAt)).toBeGreaterThan(Date.parse(item.requestedAt));
    expect(pending.items[0].files).toEqual([]);

    const page1 = await c.workflows.approvals.list({ limit: 1 });
    const page2 = await c.workflows.approvals.list({ limit: 1, cursor: page1.nextCursor! });
    expect([...page1.items, ...page2.items].map((a) => a.runId)).toEqual([second.runId, first.runId]);
    expect(page2.nextCursor).toBeNull();

    await c.workflows.approve(first.runId, { decision: "approved", note: "looks right" });
    expect((await c.workflows.approvals.list()).items.map((a) => a.runId)).toEqual([second.runId]);
    const decided = await c.workflows.approvals.list({ status: "decided" });
    expect(decided.items).toMatchObject([{ runId: first.runId, status: "approved", decision: "approved", note: "looks right" }]);
    expect(decided.items[0].decidedAt).not.toBeNull();
    expect((await c.workflows.approvals.list({ status: "all" })).items.map((a) => a.runId)).toEqual([second.runId, first.runId]);

    await expectApiError(() => c.workflows.approvals.list({ status: "maybe" as never }), "VALIDATION_ERROR", 400);
    const other = await srv.user();
    expect((await other.workflows.approvals.list({ status: "all" })).items).toEqual([]);
  });

  test("deciding twice, or after the timeout, is refused saying why", async () => {
    const c = await srv.user();
    const { runId } = await waitingRun(c);
    await c.workflows.approve(runId, { decision: "rejected", note: "no" });
    const twice = await expectApiError(() => c.workflows.approve(runId, { decision: "approved" }), "INVALID_STATE", 409);
    expect(twice.message).toMatch(/already decided: rejected at .* by you/);

    const w = await c.workflows.create({ name: "Too slow", graphJson: approvalGraph(1) });
    const late = (await c.workflows.run(w.id, [])).runId;
    const d = await c.workflows.waitFor(late);
    expect(d.run.error?.code).toBe("APPROVAL_TIMEOUT");
    const expired = await expectApiError(() => c.workflows.approve(late, { decision: "approved" }), "INVALID_STATE", 409);
    expect(expired.message).toMatch(/expired at .*APPROVAL_TIMEOUT/);
    expect((await c.workflows.approvals.list({ status: "decided" })).items.map((a) => [a.runId, a.status])).toEqual([
      [late, "expired"],
      [runId, "rejected"],
    ]);

    const plain = await c.workflows.create({ name: "p", graphJson: plainGraph });
    const none = (await c.workflows.runAndWait(plain.id, [])).run.runId;
    expect((await expectApiError(() => c.workflows.approve(none, { decision: "approved" }), "INVALID_STATE", 409)).message).toMatch(/not waiting for an approval/);
  }, 30_000);
});

describe("GET /api/workflows/runs/{runId}/events", () => {
  test("the run and its steps first, then each change live, ending after the run succeeded", async () => {
    const c = await srv.user();
    const { runId } = await waitingRun(c, [await pdf(c)]);
    let approved = false;
    const events = await collect(c, runId, {
      onEvent: async (e) => {
        if (!approved && e.event === "run" && e.data.status === "waiting_approval") {
          approved = true;
          await c.workflows.approve(runId, { decision: "approved" });
        }
      },
    });
    expect(approved).toBe(true);
    expectIncreasingIds(events);
    // The first answer: the run and every step, each once.
    const firstFive = events.slice(0, 5);
    expect(firstFive.filter((e) => e.event === "run").length).toBe(1);
    expect(new Set(firstFive.filter((e) => e.event === "step").map((e) => (e.data as { nodeId: string }).nodeId))).toEqual(new Set(["in", "ok", "c", "out"]));
    const later = events.slice(5);
    expect(later.some((e) => e.event === "step" && e.data.nodeId === "c" && e.data.status === "succeeded")).toBe(true);
    expect(later.filter((e) => e.event === "run").at(-1)?.data.status).toBe("succeeded");
    // The iteration ended because the server closed the stream; what it showed is the run as it is.
    expectMatchesDetail(events, await c.workflows.runDetail(runId));
  }, 60_000);

  test("a reconnection with Last-Event-ID gets exactly the changes after it", async () => {
    const c = await srv.user();
    const { runId } = await waitingRun(c, [await pdf(c)]);
    const before = await collect(c, runId, { stopAfter: 5 });
    await c.workflows.approve(runId, { decision: "approved" });
    const final = await c.workflows.waitFor(runId);
    expect(final.run.status).toBe("succeeded");

    const after = await collect(c, runId, { lastEventId: before.at(-1)!.id });
    const ids = new Set(before.map((e) => e.id));
    expect(after.some((e) => ids.has(e.id))).toBe(false);
    // The source step did not change after the approval: it is not sent again.
    expect(after.some((e) => e.event === "step" && e.data.nodeId === "in")).toBe(false);
    expect(after.length).toBeGreaterThan(0);
    expectIncreasingIds([...before, ...after]);
    expectMatchesDetail([...before, ...after], final);
    // A fresh connection to the ended run: its rows as they are, then the end.
    expectMatchesDetail(await collect(c, runId), final);
    // Nothing is newer than the last id: 204, no stream (an EventSource stops reconnecting), and the iterator ends empty.
    expect(await collect(c, runId, { lastEventId: after.at(-1)!.id })).toEqual([]);
    const done = await c.t.fetchOk(`/api/workflows/runs/${runId}/events`, { headers: { accept: "text/event-stream", "last-event-id": after.at(-1)!.id } });
    expect(done.status).toBe(204);
  }, 60_000);

  test("a cancel sends the run and the steps it skipped, nothing else", async () => {
    const c = await srv.user();
    const { runId } = await waitingRun(c);
    const before = await collect(c, runId, { stopAfter: 5 });
    await c.workflows.cancel(runId);
    const after = await collect(c, runId, { lastEventId: before.at(-1)!.id });
    // The source step had succeeded before: it is not sent again.
    expect(after.map((e) => (e.event === "run" ? `run ${e.data.status}` : `${e.data.nodeId} ${e.data.status}`)).sort()).toEqual(["c skipped", "ok skipped", "out skipped", "run cancelled"]);
    expectMatchesDetail([...before, ...after], await c.workflows.runDetail(runId));
  });

  test("the client's iterator resumes a dropped connection with Last-Event-ID, losing and repeating nothing", async () => {
    const c = await srv.user();
    const { runId } = await waitingRun(c, [await pdf(c)]);
    // A fetch whose first event stream breaks off after two events, as a dropped connection does.
    const asked: (string | null)[] = [];
    const cutting = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (!String(input).endsWith("/events")) return res;
      asked.push(new Headers(init?.headers).get("last-event-id"));
      if (asked.length > 1) return res;
      return new Response(cutAfterEvents(res.body!, 2), { status: res.status, headers: res.headers });
    };
    const resumed = new VektorClient({ baseUrl: srv.url, cookie: c.t.cookie ?? undefined, fetch: cutting as typeof fetch });
    const events: RunEvent[] = [];
    for await (const e of resumed.workflows.runEvents(runId, { retryMs: 50 })) {
      events.push(e);
      // The whole first answer (the run and its four steps) arrived, over two connections.
      if (events.length === 5) await c.workflows.approve(runId, { decision: "approved" });
    }
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked[0]).toBeNull();
    expect(asked[1]).toBe(events[1].id);
    expectIncreasingIds(events);
    expect(events.filter((e) => e.event === "run").at(-1)?.data.status).toBe("succeeded");
    expectMatchesDetail(events, await c.workflows.runDetail(runId));
  }, 60_000);

  test("the raw stream: an id on every event, heartbeats, closed after the end", async () => {
    const c = await srv.user();
    const plain = await c.workflows.create({ name: "p", graphJson: plainGraph });
    const { run } = await c.workflows.runAndWait(plain.id, []);
    const res = await c.t.fetchOk(`/api/workflows/runs/${run.runId}/events`, { headers: { accept: "text/event-stream" } });
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const blocks = (await res.text()).split("\n\n").filter((b) => b && !b.startsWith(":"));
    expect(blocks.length).toBe(3);
    for (const b of blocks) expect(b).toMatch(/^id: \d+\nevent: (run|step)\ndata: \{.*\}$/);

    // A live stream stays open with heartbeats while the run waits.
    const { runId } = await waitingRun(c);
    const ac = new AbortController();
    const live = await c.t.fetchOk(`/api/workflows/runs/${runId}/events`, { headers: { accept: "text/event-stream" }, signal: ac.signal });
    const reader = live.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    await waitFor("a heartbeat", async () => (text += (await reader.read()).value ?? ""), (t) => t.includes(": heartbeat"), 10_000, 0);
    ac.abort();
    await c.workflows.cancel(runId);
  });

  test("a server that stops ends its streams asking the clients to reconnect, instead of waiting for them", async () => {
    const own = await startTestServer();
    let closed = false;
    try {
      const c = await own.user();
      const { runId } = await waitingRun(c);
      const res = await c.t.fetchOk(`/api/workflows/runs/${runId}/events`, { headers: { accept: "text/event-stream" } });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      expect((await reader.read()).value).toContain("event: ");
      await own.close();
      closed = true;
      let rest = "";
      for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
      // Not a bare end (that would say the run ended): the client is told to connect again.
      expect(rest).toEndWith("event: reconnect\ndata: {}\n\n");
    } finally {
      if (!closed) await own.close();
    }
  }, 60_000);

  test("another user's or an unknown run is a 404 before any stream; a bad Last-Event-ID is a 400", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const { runId } = await waitingRun(c);
    await expectApiError(() => other.workflows.runEvents(runId).next(), "NOT_FOUND", 404);
    await expectApiError(() => c.workflows.runEvents("run_nope").next(), "NOT_FOUND", 404);
    await expectApiError(() => srv.anon().workflows.runEvents(runId).next(), "UNAUTHORIZED", 401);
    await expectApiError(() => c.workflows.runEvents(runId, { lastEventId: "abc" }).next(), "VALIDATION_ERROR", 400);
    await c.workflows.cancel(runId);
  });
});

// One PGlite database belongs to one process: two processes share a database only on PostgreSQL.
describe.skipIf(!process.env.TEST_DATABASE_URL)("across two processes on one PostgreSQL", () => {
  const secret = "run-events-test-secret-run-events-test-secret-0123";
  let api: TestServer;
  let worker: ReturnType<typeof Bun.spawn>;
  let workerDir: string;

  beforeAll(async () => {
    // This process only answers HTTP (no worker): every step is run by the other process.
    api = await startTestServer({ BETTER_AUTH_SECRET: secret, ROLE: "api" });
    workerDir = mkdtempSync(join(tmpdir(), "vektor-run-events-"));
    const url = `http://127.0.0.1:${await freePort()}`;
    const env = { DATABASE_URL: api.services.env.databaseUrl!, BETTER_AUTH_SECRET: secret, HOST: "127.0.0.1", PORT: new URL(url).port, PUBLIC_URL: url, DATA_DIR: workerDir, LOG_LEVEL: "warn", JOB_POLL_MS: "100", TOOL_WORKERS: "1" };
    worker = await spawnServer(env, url);
  }, 150_000);

  afterAll(async () => {
    worker?.kill("SIGKILL");
    await worker?.exited;
    await api?.close();
    if (workerDir) rmSync(workerDir, { recursive: true, force: true });
  });

  test("steps run by the other process's worker stream live to the end", async () => {
    const c = await api.user();
    const w = await c.workflows.create({ name: "Elsewhere", graphJson: linear(["in", "source.upload"], ["ok", "logic.approval"], ["m", "logic.merge"], ["out", "sink.download"]) });
    const { runId } = await c.workflows.run(w.id, []);
    let approved = false;
    const events = await collect(c, runId, {
      onEvent: async (e) => {
        if (!approved && e.event === "step" && e.data.nodeId === "ok" && e.data.status === "waiting_approval") {
          approved = true;
          await c.workflows.approve(runId, { decision: "approved" });
        }
      },
    });
    expect(approved).toBe(true);
    expectIncreasingIds(events);
    expect(events.filter((e) => e.event === "run").at(-1)?.data.status).toBe("succeeded");
    expectMatchesDetail(events, await c.workflows.runDetail(runId));
  }, 60_000);
});
