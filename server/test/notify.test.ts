/**
 * Completion notifications over real HTTP and SMTP (issue 11, items 5-7): the outbound webhook
 * (body and signature checked by the receiver, failure and cancel bodies, retries until a 2xx
 * with every attempt recorded, a hanging receiver timed out, the address guard on the URL and on
 * redirects, a retry that survives a server restart) and the owner's e-mail through a real SMTP
 * server on loopback, with its switch. Receivers listen on 127.0.0.1; only their exact ports are
 * let through the guard (net.allow_hosts), so other loopback ports stay blocked.
 */
import { VektorClient, signWebhook } from "@vektor/shared/client";
import type { Delivery } from "@vektor/shared/schemas/notify";
import type { RunDetail } from "@vektor/shared/schemas/workflow";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { job } from "../src/db/schema";
import { ADMIN_EMAIL, freePort, spawnedDatabase, PASSWORD, spawnServer, startTestServer, waitFor, type TestServer } from "./harness";
import { linear } from "./graphs";
import { decodedMail, startMailSink, type MailSink } from "./mail-sink";
import { makePdf } from "./fixtures";

/** One request a receiver got. */
interface Received {
  path: string;
  headers: Headers;
  body: string;
  at: number;
}

/** A loopback HTTP receiver that records every request; `answer` decides the reply per path. */
function receiver(answer: (path: string, count: number) => Response | Promise<Response> = () => new Response("ok")) {
  const got: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      got.push({ path, headers: req.headers, body: await req.text(), at: Date.now() });
      return answer(path, got.filter((g) => g.path === path).length);
    },
  });
  return { got, server, url: (path: string) => `http://127.0.0.1:${server.port}${path}`, on: (path: string) => got.filter((g) => g.path === path) };
}

let srv: TestServer;
let recv: ReturnType<typeof receiver>;
/** Never let through the guard: anything it receives is a failure of the guard. */
let forbidden: ReturnType<typeof receiver>;
let pdf: Uint8Array<ArrayBuffer>;
const hung: (() => void)[] = [];

beforeAll(async () => {
  pdf = await makePdf(1);
  // Fast retries, so a test sees many attempts quickly; the attempt limit is every test's, so it stays
  // long enough that a slow loopback answer on a busy machine is never taken for a hanging receiver.
  srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "1", NOTIFY_RETRY_BASE_MS: "20", NOTIFY_TIMEOUT_MS: "5000" });
  forbidden = receiver();
  recv = receiver((path, count) => {
    if (path === "/always500") return new Response("no", { status: 500 });
    if (path === "/hang") return new Promise<Response>((resolve) => hung.push(() => resolve(new Response("late"))));
    if (path === "/to-blocked") return new Response(null, { status: 307, headers: { location: forbidden.url("/stolen") } });
    if (path === "/to-metadata") return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
    if (path === "/moved") return new Response(null, { status: 308, headers: { location: "/ok-after-move" } });
    if (path === "/fail-twice") return new Response(count <= 2 ? "not yet" : "ok", { status: count <= 2 ? 503 : 200 });
    return new Response("ok");
  });
  await (await srv.admin()).admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${recv.server.port}`] });
});

afterAll(async () => {
  for (const release of hung) release();
  await srv.close();
  recv.server.stop(true);
  forbidden.server.stop(true);
});

type Client = Awaited<ReturnType<TestServer["user"]>>;

/** No tool step: the run ends at once with its input as output. */
const PASS = linear(["in", "source.upload"], ["out", "sink.download"]);
/** Waits for a decision: rejecting it fails the run, cancelling it cancels it. */
const GATED = linear(["in", "source.upload"], ["gate", "logic.approval"], ["out", "sink.download"]);

async function upload(c: VektorClient, name = "doc.pdf") {
  return (await c.files.upload(new Blob([pdf]), { filename: name, mime: "application/pdf" })).fileId;
}

/** A workflow notifying `notifyUrl` (and signing with `notifySecret`), run once on a fresh file. */
async function runNotifying(c: Client, params: Record<string, string>, graphJson = PASS) {
  const w = await c.workflows.create({ name: "notified", graphJson, paramsJson: JSON.stringify(params) });
  const fileId = await upload(c);
  const { runId } = await c.workflows.run(w.id, [fileId]);
  return { w, runId, fileId };
}

const webhookDeliveries = (d: RunDetail) => d.deliveries.filter((x) => x.channel === "webhook");

/** The run's webhook delivery once `ok` holds for it. */
async function deliveryOf(c: Client, runId: string, ok: (d: Delivery) => boolean, timeoutMs = 30_000): Promise<{ detail: RunDetail; delivery: Delivery }> {
  const detail = await waitFor(`a delivery of ${runId}`, () => c.workflows.runDetail(runId), (d) => webhookDeliveries(d).length === 1 && ok(webhookDeliveries(d)[0]), timeoutMs);
  return { detail, delivery: webhookDeliveries(detail)[0] };
}

/** No due notification job left (so "nothing was sent" is a settled fact, not a race). */
async function notifyIdle(s: TestServer = srv) {
  await waitFor(
    "notification jobs to finish",
    async () => (await s.services.database.db.select({ kind: job.kind, status: job.status, runAfter: job.runAfter }).from(job)).filter((j) => j.kind.startsWith("notify.") && (j.status === "running" || (j.status === "queued" && j.runAfter.getTime() <= Date.now()))).length,
    (n) => n === 0,
  );
}

describe("outbound completion webhook", () => {
  test("success: the receiver gets { runId, status, fileIds }, signed with notifySecret, with the delivery id", async () => {
    const c = await srv.user();
    const secret = "s3cret-for-notify";
    const { runId, fileId } = await runNotifying(c, { notifyUrl: recv.url("/signed"), notifySecret: secret });
    const { detail, delivery } = await deliveryOf(c, runId, (d) => d.status === "succeeded");
    expect(detail.run.status).toBe("succeeded");
    const [req] = recv.on("/signed").filter((r) => r.body.includes(runId));
    expect(JSON.parse(req.body)).toEqual({ runId, status: "succeeded", fileIds: [fileId] });
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.headers.get("x-service-delivery")).toBe(delivery.id);
    // The receiver checks the signature the way the inbound hook does: over "<timestamp>.<raw body>".
    const ts = req.headers.get("x-service-timestamp")!;
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(300);
    expect(req.headers.get("x-service-signature")).toBe(await signWebhook(secret, ts, req.body));
    expect(req.headers.get("x-service-signature")).not.toBe(await signWebhook("another-secret", ts, req.body));
    expect(delivery).toMatchObject({ channel: "webhook", target: recv.url("/signed"), runStatus: "succeeded", status: "succeeded" });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ outcome: "ok", statusCode: 200, error: null });
    expect(Date.parse(delivery.attempts[0].at)).not.toBeNaN();
    expect(delivery.finishedAt).not.toBeNull();
  });

  test("without notifySecret nothing is signed; a workflow without notifyUrl has no delivery", async () => {
    const c = await srv.user();
    const { runId } = await runNotifying(c, { notifyUrl: recv.url("/unsigned") });
    await deliveryOf(c, runId, (d) => d.status === "succeeded");
    const [req] = recv.on("/unsigned").filter((r) => r.body.includes(runId));
    expect(req.headers.get("x-service-signature")).toBeNull();
    expect(req.headers.get("x-service-timestamp")).toBeNull();
    expect(req.headers.get("x-service-delivery")).toMatch(/^dlv_/);

    const w = await c.workflows.create({ name: "quiet", graphJson: PASS });
    const done = await c.workflows.waitFor((await c.workflows.run(w.id, [await upload(c)])).runId);
    expect(done.run.status).toBe("succeeded");
    expect(done.deliveries).toEqual([]);
  });

  test("failure and cancel: { runId, status, error } with the run's error code", async () => {
    const c = await srv.user();
    const rejected = await runNotifying(c, { notifyUrl: recv.url("/failures") }, GATED);
    await c.workflows.waitFor(rejected.runId, { until: ["waiting_approval"] });
    await c.workflows.approve(rejected.runId, { decision: "rejected", note: "no" });
    const failed = await deliveryOf(c, rejected.runId, (d) => d.status === "succeeded");
    expect(failed.detail.run.status).toBe("failed");
    const body = JSON.parse(recv.on("/failures").find((r) => r.body.includes(rejected.runId))!.body);
    expect(body).toEqual({ runId: rejected.runId, status: "failed", error: { code: "APPROVAL_REJECTED", message: expect.any(String) } });
    expect(failed.delivery.runStatus).toBe("failed");

    const cancelled = await runNotifying(c, { notifyUrl: recv.url("/failures") }, GATED);
    await c.workflows.waitFor(cancelled.runId, { until: ["waiting_approval"] });
    await c.workflows.cancel(cancelled.runId);
    await deliveryOf(c, cancelled.runId, (d) => d.status === "succeeded");
    const cancelBody = JSON.parse(recv.on("/failures").find((r) => r.body.includes(cancelled.runId))!.body);
    expect(cancelBody).toMatchObject({ runId: cancelled.runId, status: "cancelled", error: { code: expect.any(String), message: expect.any(String) } });
    expect(cancelBody.fileIds).toBeUndefined();
  });

  test("a receiver answering 500: retried with the same delivery id until it gives up, every attempt recorded, the run untouched", async () => {
    const c = await srv.user();
    const { runId } = await runNotifying(c, { notifyUrl: recv.url("/always500"), notifySecret: "retry-secret" });
    const { detail, delivery } = await deliveryOf(c, runId, (d) => d.status === "failed", 60_000);
    expect(detail.run.status).toBe("succeeded");
    expect(detail.run.error).toBeNull();
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(5);
    for (const a of delivery.attempts) expect(a).toMatchObject({ outcome: "http_error", statusCode: 500 });
    const times = delivery.attempts.map((a) => Date.parse(a.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const got = recv.on("/always500").filter((r) => r.body.includes(runId));
    expect(got.length).toBe(delivery.attempts.length);
    expect(new Set(got.map((r) => r.headers.get("x-service-delivery")))).toEqual(new Set([delivery.id]));
    // The same bytes every time; each attempt signs them with its own timestamp.
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) expect(r.headers.get("x-service-signature")).toBe(await signWebhook("retry-secret", r.headers.get("x-service-timestamp")!, r.body));
  }, 90_000);

  test("a receiver that answers 503 twice and then 200: three attempts, succeeded", async () => {
    const c = await srv.user();
    const { runId } = await runNotifying(c, { notifyUrl: recv.url("/fail-twice") });
    const { delivery } = await deliveryOf(c, runId, (d) => d.status === "succeeded");
    expect(delivery.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ["http_error", 503],
      ["http_error", 503],
      ["ok", 200],
    ]);
  });

  test("a hanging receiver: the attempt is recorded as a timeout and retried; the run is untouched", async () => {
    const c = await srv.user();
    const { runId } = await runNotifying(c, { notifyUrl: recv.url("/hang") });
    const { detail, delivery } = await deliveryOf(c, runId, (d) => d.attempts.length >= 2);
    expect(detail.run.status).toBe("succeeded");
    expect(delivery.attempts[0]).toMatchObject({ outcome: "timeout", statusCode: null });
    expect(delivery.attempts[0].error).toContain("5 s");
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(4_900);
  });

  test("a redirect is followed with the same POST; the target is checked again", async () => {
    const c = await srv.user();
    const { runId } = await runNotifying(c, { notifyUrl: recv.url("/moved") });
    const { delivery } = await deliveryOf(c, runId, (d) => d.status === "succeeded");
    const moved = recv.on("/ok-after-move").find((r) => r.body.includes(runId))!;
    expect(JSON.parse(moved.body)).toMatchObject({ runId, status: "succeeded" });
    expect(moved.headers.get("x-service-delivery")).toBe(delivery.id);
  });

  test("a notifyUrl at a private, loopback or metadata address, or redirecting to one, is blocked: never sent, not retried", async () => {
    const c = await srv.user();
    const targets = [
      forbidden.url("/direct"), // loopback, on a port not in net.allow_hosts
      `http://localhost:${forbidden.server.port}/by-name`,
      `http://[::1]:${forbidden.server.port}/v6`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.20.30.40/hook",
      "http://192.168.1.10:8080/hook",
      recv.url("/to-blocked"),
      recv.url("/to-metadata"),
    ];
    for (const notifyUrl of targets) {
      const { runId } = await runNotifying(c, { notifyUrl, notifySecret: "blocked-secret" });
      const { detail, delivery } = await deliveryOf(c, runId, (d) => d.status !== "pending");
      expect({ notifyUrl, status: delivery.status }).toEqual({ notifyUrl, status: "blocked" });
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]).toMatchObject({ outcome: "blocked", statusCode: null });
      expect(delivery.attempts[0].error).toMatch(/blocked address range/);
      if (notifyUrl.includes("/to-")) expect(delivery.attempts[0].error).toMatch(/^redirect blocked/);
      expect(detail.run.status).toBe("succeeded");
    }
    await notifyIdle();
    expect(forbidden.got).toEqual([]);
  });
});

describe("completion e-mail", () => {
  let sink: MailSink;

  beforeAll(async () => void (sink = await startMailSink()));

  afterAll(async () => {
    await (await srv.admin()).admin.setConfig("workflow_configs", { "workflow.notify_email_enabled": false });
    await sink.close();
  });

  const decoded = decodedMail;

  test("on: the owner gets a short message with the workflow, the status and a link to the run", async () => {
    const admin = await srv.admin();
    await admin.admin.setConfig("platform_configs", { "email.smtp_url": sink.url });
    await admin.admin.setConfig("workflow_configs", { "workflow.notify_email_enabled": true });
    const c = await srv.user();
    const w = await c.workflows.create({ name: "Nightly drawings", graphJson: PASS });
    const { runId } = await c.workflows.run(w.id, [await upload(c)]);
    const mail = await waitFor("the e-mail", async () => sink.mails.find((m) => m.raw.includes(runId)), (m) => m !== undefined);
    expect(mail!.to).toEqual([c.email]);
    const text = decoded(mail!.raw);
    expect(text).toContain("Subject: Workflow run succeeded: Nightly drawings");
    expect(text).toContain("Workflow: Nightly drawings");
    expect(text).toContain("Status: succeeded");
    expect(text).toContain(`${srv.url}/workflows/runs/${runId}`);
    const detail = await waitFor("the e-mail delivery", () => c.workflows.runDetail(runId), (d) => d.deliveries.some((x) => x.channel === "email" && x.status === "succeeded"));
    expect(detail.deliveries.find((x) => x.channel === "email")).toMatchObject({ target: c.email, runStatus: "succeeded", status: "succeeded", attempts: [{ outcome: "ok" }] });
  });

  test("a failed run's e-mail names the error", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "Gate", graphJson: GATED });
    const { runId } = await c.workflows.run(w.id, [await upload(c)]);
    await c.workflows.waitFor(runId, { until: ["waiting_approval"] });
    await c.workflows.approve(runId, { decision: "rejected" });
    const mail = await waitFor("the e-mail", async () => sink.mails.find((m) => m.raw.includes(runId)), (m) => m !== undefined);
    const text = decoded(mail!.raw);
    expect(text).toContain("Subject: Workflow run failed: Gate");
    expect(text).toContain("Error: APPROVAL_REJECTED");
  });

  test("switched off: no message and no e-mail delivery", async () => {
    await (await srv.admin()).admin.setConfig("workflow_configs", { "workflow.notify_email_enabled": false });
    const c = await srv.user();
    const w = await c.workflows.create({ name: "Silent", graphJson: PASS });
    const before = sink.mails.length;
    const done = await c.workflows.waitFor((await c.workflows.run(w.id, [await upload(c)])).runId);
    expect(done.run.status).toBe("succeeded");
    await notifyIdle();
    expect(sink.mails.length).toBe(before);
    expect((await c.workflows.runDetail(done.run.runId)).deliveries).toEqual([]);
  });
});

describe("catalog and OpenAPI", () => {
  test("the catalog's trigger nodes document every trigger, the hook's headers and body, and the completion webhook", async () => {
    const c = await srv.user();
    const nodes = await c.workflows.catalog();
    const triggers = nodes.flatMap((n) => n.triggers ?? []);
    expect(triggers.map((t) => t.type).sort()).toEqual(["manual", "schedule", "watch", "webhook"]);
    const hook = triggers.find((t) => t.type === "webhook")!.request!;
    expect(hook).toMatchObject({ method: "POST", url: "/api/workflows/{id}/hook" });
    expect(hook.headers.map((h) => h.name)).toEqual(expect.arrayContaining(["X-Service-Timestamp", "X-Service-Signature"]));
    expect(JSON.stringify(hook.body)).toContain("fileIds");
    const notifications = nodes.find((n) => n.type === "trigger.webhook")!.notifications!;
    expect(notifications.map((n) => n.channel)).toEqual(["webhook", "email"]);
    const out = notifications[0].request!;
    expect(out.headers.map((h) => h.name)).toEqual(expect.arrayContaining(["X-Service-Delivery", "X-Service-Timestamp", "X-Service-Signature"]));
    expect(JSON.stringify(out.body)).toContain("fileIds");
    expect(JSON.stringify(out.body)).toContain("error");
    expect(nodes.find((n) => n.type === "op.pdf.compress")!.triggers).toBeUndefined();
  });

  test("OpenAPI: the completion webhook under webhooks, deliveries on the run detail", async () => {
    const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as {
      webhooks: Record<string, { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: { oneOf: unknown[] } }> }; description: string } }>;
      paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
    };
    const hook = doc.webhooks.workflowRunCompleted.post;
    expect(hook.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(["X-Service-Delivery", "X-Service-Timestamp", "X-Service-Signature"]));
    expect(hook.requestBody.content["application/json"].schema.oneOf).toHaveLength(2);
    expect(hook.description).toContain("blocked");
    const runDetail = doc.paths["/api/workflows/runs/{runId}"].get;
    expect(JSON.stringify(runDetail.responses["200"])).toContain("deliveries");
    expect(runDetail.description).toContain("X-Service-Delivery");
  });
});

describe("a retry after a restart", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "vektor-notify-restart-"));
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  let dropDb: (() => Promise<void>) | null = null;
  afterAll(async () => {
    proc?.kill("SIGKILL");
    await proc?.exited;
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a delivery that fails twice, then the server is killed: the 3rd attempt, after the restart, succeeds with the same id", async () => {
    const flaky = receiver((_, count) => new Response(count <= 2 ? "down" : "ok", { status: count <= 2 ? 500 : 200 }));
    try {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // A 5 s base: the 3rd attempt is due 5-10 s after the 2nd, time enough to kill the server before it even on a busy machine.
      const env: Record<string, string> = { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", TOOL_WORKERS: "1", JOB_POLL_MS: "100", JOB_LEASE_MS: "3000", NOTIFY_RETRY_BASE_MS: "5000", ADMIN_EMAILS: ADMIN_EMAIL };
      dropDb = await spawnedDatabase(env);
      proc = await spawnServer(env, base);
      const admin = new VektorClient({ baseUrl: base });
      await admin.auth.signUp({ name: "admin", email: ADMIN_EMAIL, password: PASSWORD });
      await admin.admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${flaky.server.port}`] });
      const c = new VektorClient({ baseUrl: base });
      await c.auth.signUp({ name: "restart", email: "notify-restart@example.test", password: PASSWORD });
      const w = await c.workflows.create({ name: "restart", graphJson: PASS, paramsJson: JSON.stringify({ notifyUrl: flaky.url("/flaky"), notifySecret: "restart-secret" }) });
      const fileId = (await c.files.upload(new Blob([pdf]), { filename: "r.pdf", mime: "application/pdf" })).fileId;
      const { runId } = await c.workflows.run(w.id, [fileId]);

      const two = await waitFor("two recorded attempts", () => c.workflows.runDetail(runId), (d) => (webhookDeliveries(d)[0]?.attempts.length ?? 0) >= 2);
      expect(webhookDeliveries(two)[0].attempts).toHaveLength(2);
      proc.kill("SIGKILL");
      await proc.exited;
      const killedAt = Date.now();
      expect(flaky.got).toHaveLength(2);
      proc = await spawnServer(env, base);

      const done = await waitFor("the 3rd attempt", () => c.workflows.runDetail(runId), (d) => webhookDeliveries(d)[0]?.status === "succeeded", 60_000);
      const delivery = webhookDeliveries(done)[0];
      expect(delivery.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
        ["http_error", 500],
        ["http_error", 500],
        ["ok", 200],
      ]);
      expect(done.run.status).toBe("succeeded");
      expect(flaky.got).toHaveLength(3);
      expect(flaky.got[2].at).toBeGreaterThan(killedAt);
      expect(new Set(flaky.got.map((r) => r.headers.get("x-service-delivery")))).toEqual(new Set([delivery.id]));
      expect(flaky.got[2].headers.get("x-service-signature")).toBe(await signWebhook("restart-secret", flaky.got[2].headers.get("x-service-timestamp")!, flaky.got[2].body));
    } finally {
      flaky.server.stop(true);
    }
  }, 300_000);
});
