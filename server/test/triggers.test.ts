/**
 * Workflow triggers over real HTTP (issue 11, items 1-4): the triggers API and its config
 * checks, the hook (signed and legacy forms, with every refusal the issue lists, none of them
 * charging anything), schedules through the dispatcher (a given `now` whose fire time is already
 * past runs at once, exactly once however often it is dispatched), watches on confirmed uploads
 * and URL imports, and the admin switches. With TEST_DATABASE_URL: two server processes on one
 * PostgreSQL dispatching at the same moment still start each fire time once. A dispatch as of a
 * `now` ahead of the clock starts the fire time at `now` at once (issue 18, item 4).
 */
import { VektorClient, signWebhook } from "@vektor/shared/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { job, workflowTrigger } from "../src/db/schema";
import { enqueue } from "../src/queue/enqueue";
import { dispatchSchedules } from "../src/workflows/triggers/schedule";
import { ADMIN_EMAIL, expectApiError, freePort, PASSWORD, spawnServer, startTestServer, waitFor, type TestServer } from "./harness";
import { linear } from "./graphs";
import { makePdf } from "./fixtures";

let srv: TestServer;
let files: ReturnType<typeof Bun.serve>;
let pdfBytes: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  pdfBytes = await makePdf(1);
  srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "2" });
  files = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(pdfBytes, { headers: { "content-type": "application/pdf" } }) });
});
afterAll(async () => {
  files.stop(true);
  await srv.close();
});

type Client = Awaited<ReturnType<TestServer["user"]>>;

/** No tool step: a run costs workflow.base_credits (1) and ends at once. */
const PASS = linear(["in", "source.upload"], ["out", "sink.download"]);

async function upload(c: Client, name = "doc.pdf") {
  return (await c.files.upload(new Blob([pdfBytes]), { filename: name, mime: "application/pdf" })).fileId;
}

const balance = async (c: Client) => (await c.account()).credits;
const runsOf = async (c: Client, id: string) => (await c.workflows.runs(id, { limit: 200 })).items;

/** No due job of these kinds left queued or running (so "nothing started" is a settled fact, not a race). */
async function queueIdle(kinds: string[], s: TestServer = srv) {
  const db = s.services.database.db;
  await waitFor(
    `${kinds.join(", ")} jobs to finish`,
    async () =>
      (await db.select({ kind: job.kind, status: job.status, runAfter: job.runAfter }).from(job)).filter(
        (j) => kinds.includes(j.kind) && (j.status === "running" || (j.status === "queued" && j.runAfter.getTime() <= Date.now())),
      ).length,
    (n) => n === 0,
  );
}

/** A raw hook request: `body` as sent, optional signature headers. */
async function hook(workflowId: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${srv.url}/api/workflows/${workflowId}/hook`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

async function signed(secret: string, body: string, ts = Math.floor(Date.now() / 1000)) {
  return { "x-service-timestamp": String(ts), "x-service-signature": await signWebhook(secret, ts, body) };
}

async function expectRefused(res: Response, status: number, code: string, message?: RegExp) {
  const json = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
  expect({ status: res.status, code: json.error?.code }).toEqual({ status, code });
  if (message) expect(json.error.message).toMatch(message);
}

/** Sleeps to just after a second boundary, so a timestamp computed now is still that second when the server reads it. */
async function atSecondStart() {
  await Bun.sleep(1005 - (Date.now() % 1000));
}

async function setWorkflowConfig(patch: Record<string, unknown>) {
  await (await srv.admin()).admin.setConfig("workflow_configs", patch);
}

describe("triggers API", () => {
  test("PUT creates or replaces the trigger of a type with a new secret; GET lists them without secrets; DELETE removes", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "t", graphJson: PASS });
    const first = await c.workflows.triggers.put(w.id, { type: "webhook", config: {} });
    expect(first.id).toMatch(/^trg_/);
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    const again = await c.workflows.triggers.put(w.id, { type: "webhook" });
    expect(again.id).toBe(first.id);
    expect(again.secret).not.toBe(first.secret);
    const sched = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: " 7   3 * * 1 " } });
    const watch = await c.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf" } });
    const list = await c.workflows.triggers.list(w.id);
    expect(list.map((t) => [t.id, t.type, t.config])).toEqual([
      [first.id, "webhook", {}],
      [sched.id, "schedule", { cron: "7 3 * * 1" }],
      [watch.id, "watch", { suffix: ".pdf" }],
    ]);
    for (const t of list) {
      expect(Object.keys(t).sort()).toEqual(["config", "createdAt", "id", "type", "updatedAt", "workflowId"]);
      expect(JSON.stringify(t)).not.toContain(again.secret);
    }
    await c.workflows.triggers.delete(w.id, sched.id);
    expect((await c.workflows.triggers.list(w.id)).map((t) => t.type)).toEqual(["webhook", "watch"]);
    await expectApiError(() => c.workflows.triggers.delete(w.id, sched.id), "NOT_FOUND", 404);
  });

  test("the secret is stored sealed: the database holds neither it nor anything that opens without the server secret", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "t", graphJson: PASS });
    const { id, secret } = await c.workflows.triggers.put(w.id, { type: "webhook" });
    const [row] = await srv.services.database.db.select().from(workflowTrigger).where(eq(workflowTrigger.id, id));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secretSealed).toMatch(/^v1\./);
  });

  test("config is checked on save: invalid crons, a watch without prefix or suffix, an unknown type or key are 400", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "t", graphJson: PASS });
    for (const cron of ["* * *", "61 * * * *", "* * * * * *", "", "@hourly", "0 0 31 2 *", "nonsense a b c d"]) {
      await expectApiError(() => c.workflows.triggers.put(w.id, { type: "schedule", config: { cron } }), "VALIDATION_ERROR", 400);
    }
    await expectApiError(() => c.workflows.triggers.put(w.id, { type: "schedule", config: {} }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: 5 } }), "VALIDATION_ERROR", 400);
    for (const config of [{}, { prefix: "" }, { prefix: "", suffix: "" }, { suffix: 3 }]) {
      await expectApiError(() => c.workflows.triggers.put(w.id, { type: "watch", config }), "VALIDATION_ERROR", 400);
    }
    await expectApiError(() => c.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf", sufix: ".pdf" } }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.triggers.put(w.id, { type: "email" as "webhook", config: {} }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("PUT", `/api/workflows/${w.id}/triggers`, { config: {} }), "VALIDATION_ERROR", 400);
    expect(await c.workflows.triggers.list(w.id)).toEqual([]);
    await c.workflows.triggers.put(w.id, { type: "watch", config: { prefix: "scan-" } });
    await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: "*/5 * * * *" } });
  });

  test("another user's workflow is 404 on every trigger route; no login is 401", async () => {
    const owner = await srv.user();
    const other = await srv.user();
    const w = await owner.workflows.create({ name: "t", graphJson: PASS });
    const t = await owner.workflows.triggers.put(w.id, { type: "webhook" });
    await expectApiError(() => other.workflows.triggers.list(w.id), "NOT_FOUND", 404);
    await expectApiError(() => other.workflows.triggers.put(w.id, { type: "webhook" }), "NOT_FOUND", 404);
    await expectApiError(() => other.workflows.triggers.delete(w.id, t.id), "NOT_FOUND", 404);
    await expectApiError(() => srv.anon().workflows.triggers.list(w.id), "UNAUTHORIZED", 401);
    await expectApiError(() => srv.anon().workflows.triggers.put(w.id, { type: "webhook" }), "UNAUTHORIZED", 401);
    expect((await owner.workflows.triggers.list(w.id)).length).toBe(1);
  });

  test("the OpenAPI description documents the trigger routes, the hook's headers and body, and the dispatcher", async () => {
    const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary?: string; description?: string; parameters?: { name: string }[]; requestBody?: unknown; security?: unknown[] }>> };
    const hookOp = doc.paths["/api/workflows/{id}/hook"].post;
    expect(hookOp.description).toContain("X-Service-Signature");
    expect(hookOp.description).toContain("WEBHOOK_SIGNATURE_EXPIRED");
    expect(hookOp.parameters!.map((p) => p.name.toLowerCase())).toEqual(expect.arrayContaining(["x-service-timestamp", "x-service-signature"]));
    expect(hookOp.requestBody).toBeDefined();
    expect(hookOp.security).toEqual([{ webhookSignature: [] }, {}]);
    for (const [path, method] of [["/api/workflows/{id}/triggers", "get"], ["/api/workflows/{id}/triggers", "put"], ["/api/workflows/{id}/triggers/{triggerId}", "delete"], ["/api/admin/system/dispatch-schedules", "post"]] as const) {
      expect(doc.paths[path]?.[method]?.summary).toBeTruthy();
      expect(doc.paths[path]?.[method]?.description).toBeTruthy();
    }
    // As of `now`: that instant is the present, later fire times wait for the clock.
    const dispatchOp = doc.paths["/api/admin/system/dispatch-schedules"].post;
    expect(dispatchOp.description).toContain("A fire time at or before `now` starts its run at once, even when `now` is ahead of the clock");
    expect(dispatchOp.description).toContain("starts its run when the clock reaches it");
  });
});

describe("hook", () => {
  async function setup() {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "hooked", graphJson: PASS });
    const { secret, id } = await c.workflows.triggers.put(w.id, { type: "webhook" });
    const fileId = await upload(c);
    return { c, w, secret, triggerId: id, fileId };
  }

  test("a signed request starts a run with its files, charged like a manual run", async () => {
    const { c, w, secret, fileId } = await setup();
    const before = await balance(c);
    const started = await srv.anon().workflows.hook(w.id, { fileIds: [fileId] }, { signWith: secret });
    expect(started.credits).toBe((await c.workflows.estimate(w.id)).credits);
    expect(await balance(c)).toBe(before - started.credits);
    const done = await c.workflows.waitFor(started.runId);
    expect(done.run).toMatchObject({ status: "succeeded", trigger: "webhook", inputFileIds: [fileId], outputFileIds: [fileId], credits: started.credits });
  });

  test("the legacy form { secret, fileIds } starts a run; an empty fileIds list too", async () => {
    const { c, w, secret, fileId } = await setup();
    const before = await balance(c);
    const a = await srv.anon().workflows.hook(w.id, { secret, fileIds: [fileId] });
    const b = await srv.anon().workflows.hook(w.id, { secret });
    expect(await balance(c)).toBe(before - a.credits - b.credits);
    expect((await c.workflows.waitFor(a.runId)).run).toMatchObject({ status: "succeeded", trigger: "webhook", inputFileIds: [fileId] });
    expect((await c.workflows.waitFor(b.runId)).run).toMatchObject({ status: "succeeded", trigger: "webhook", inputFileIds: [], outputFileIds: [] });
  });

  test("every bad credential is 401 with the contract's code, and nothing is charged or started", async () => {
    const { c, w, secret, fileId } = await setup();
    const body = JSON.stringify({ fileIds: [fileId] });
    const before = await balance(c);
    const now = () => Math.floor(Date.now() / 1000);
    // A wrong signature, and the right one over a body changed after signing.
    await expectRefused(await hook(w.id, body, await signed("whs_not-the-secret", body)), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, JSON.stringify({ fileIds: [] }), await signed(secret, body)), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, `${body} `, await signed(secret, body)), 401, "WEBHOOK_SIGNATURE_INVALID");
    // 301 s old, 301 s in the future (and a wrong signature that is also old is still just invalid).
    await atSecondStart();
    await expectRefused(await hook(w.id, body, await signed(secret, body, now() - 301)), 401, "WEBHOOK_SIGNATURE_EXPIRED", /301 s old/);
    await atSecondStart();
    await expectRefused(await hook(w.id, body, await signed(secret, body, now() + 301)), 401, "WEBHOOK_SIGNATURE_EXPIRED", /future/);
    await expectRefused(await hook(w.id, body, await signed("whs_wrong", body, now() - 3600)), 401, "WEBHOOK_SIGNATURE_INVALID");
    // A missing or non-numeric timestamp beside a signature; a signature that is not sha256=<hex>.
    const good = await signed(secret, body);
    await expectRefused(await hook(w.id, body, { "x-service-signature": good["x-service-signature"] }), 401, "WEBHOOK_SIGNATURE_INVALID", /Timestamp/);
    await expectRefused(await hook(w.id, body, { ...good, "x-service-timestamp": "yesterday" }), 401, "WEBHOOK_SIGNATURE_INVALID", /Timestamp/);
    await expectRefused(await hook(w.id, body, { ...good, "x-service-timestamp": `${now()}.5` }), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, body, { "x-service-timestamp": String(now()) }), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, body, { ...good, "x-service-signature": "md5=abc" }), 401, "WEBHOOK_SIGNATURE_INVALID");
    // A wrong legacy secret; no credentials at all.
    await expectRefused(await hook(w.id, JSON.stringify({ secret: `${secret}x`, fileIds: [fileId] })), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, JSON.stringify({ secret: "short", fileIds: [fileId] })), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, body), 401, "UNAUTHORIZED", /^Unauthorized$/);
    await expectRefused(await hook(w.id, ""), 401, "UNAUTHORIZED");
    expect(await balance(c)).toBe(before);
    expect(await runsOf(c, w.id)).toEqual([]);
    // The good signature still works after all that, within the window both ways.
    await atSecondStart();
    const res = await hook(w.id, body, await signed(secret, body, now() - 290));
    expect(res.status).toBe(200);
    await atSecondStart();
    expect((await hook(w.id, body, await signed(secret, body, now() + 290))).status).toBe(200);
    expect((await runsOf(c, w.id)).length).toBe(2);
  });

  test("a signed request is accepted once: the same signature again is a replay, refused without a charge", async () => {
    const { c, w, secret, fileId } = await setup();
    const body = JSON.stringify({ fileIds: [fileId] });
    const headers = await signed(secret, body);
    const before = await balance(c);
    expect((await hook(w.id, body, headers)).status).toBe(200);
    await expectRefused(await hook(w.id, body, headers), 401, "WEBHOOK_SIGNATURE_INVALID", /replay/i);
    // Sent at the same moment: still one run.
    const again = await signed(secret, body, Number(headers["x-service-timestamp"]) - 1);
    const answers = await Promise.all([1, 2, 3].map(() => hook(w.id, body, again)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    expect((await runsOf(c, w.id)).length).toBe(2);
    expect(await balance(c)).toBe(before - 2);
  });

  test("a refused run does not use up its signature: after a 402 the same request may be sent again", async () => {
    const { c, w, secret } = await setup();
    const credits = await balance(c);
    await (await srv.admin()).admin.grantCredits({ email: c.email, amount: -credits, reason: "test" });
    const body = JSON.stringify({ fileIds: [] });
    const headers = await signed(secret, body);
    await expectRefused(await hook(w.id, body, headers), 402, "INSUFFICIENT_CREDITS");
    expect(await runsOf(c, w.id)).toEqual([]);
    await (await srv.admin()).admin.grantCredits({ email: c.email, amount: 5, reason: "test" });
    expect((await hook(w.id, body, headers)).status).toBe(200);
    expect(await balance(c)).toBe(4);
  });

  test("the secret of a rotated or deleted trigger stops working at once, signed and legacy", async () => {
    const { c, w, secret, triggerId, fileId } = await setup();
    const body = JSON.stringify({ fileIds: [fileId] });
    const rotated = await c.workflows.triggers.put(w.id, { type: "webhook" });
    await expectRefused(await hook(w.id, body, await signed(secret, body)), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, JSON.stringify({ secret, fileIds: [fileId] })), 401, "WEBHOOK_SIGNATURE_INVALID");
    expect((await hook(w.id, body, await signed(rotated.secret, body))).status).toBe(200);
    await c.workflows.triggers.delete(w.id, triggerId);
    await expectRefused(await hook(w.id, body, await signed(rotated.secret, body, Math.floor(Date.now() / 1000) - 2)), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(w.id, JSON.stringify({ secret: rotated.secret })), 401, "WEBHOOK_SIGNATURE_INVALID");
    expect((await runsOf(c, w.id)).length).toBe(1);
  });

  test("a workflow that does not exist is 404; a workflow without a webhook trigger refuses every secret", async () => {
    const { secret } = await setup();
    const body = JSON.stringify({ fileIds: [] });
    await expectRefused(await hook("wf_doesNotExist0000000", body, await signed(secret, body)), 404, "NOT_FOUND");
    await expectRefused(await hook("wf_doesNotExist0000000", JSON.stringify({ secret })), 404, "NOT_FOUND");
    const c = await srv.user();
    const bare = await c.workflows.create({ name: "no trigger", graphJson: PASS });
    await expectRefused(await hook(bare.id, body, await signed(secret, body)), 401, "WEBHOOK_SIGNATURE_INVALID");
    await expectRefused(await hook(bare.id, JSON.stringify({ secret })), 401, "WEBHOOK_SIGNATURE_INVALID");
  });

  test("files must be the owner's and UPLOADED, as for a manual run; a bad body is 400; nothing charged", async () => {
    const { c, w, secret } = await setup();
    const stranger = await srv.user();
    const theirs = await upload(stranger);
    const pending = (await c.files.presignUpload<{ fileId: string }>({ filename: "p.pdf", mime: "application/pdf", size: 10 })).fileId;
    const before = await balance(c);
    for (const [fileIds, status, code] of [[[theirs], 404, "NOT_FOUND"], [["f_nope"], 404, "NOT_FOUND"], [[pending], 409, "INVALID_STATE"]] as const) {
      const body = JSON.stringify({ fileIds });
      await expectRefused(await hook(w.id, body, await signed(secret, body)), status, code);
    }
    for (const bad of ["{not json", JSON.stringify({ fileIds: "x" }), JSON.stringify({ fileIds: [], extra: 1 }), JSON.stringify({ secret, fileIds: [] })]) {
      await expectRefused(await hook(w.id, bad, await signed(secret, bad)), 400, "VALIDATION_ERROR");
    }
    await expectRefused(await hook(w.id, JSON.stringify({ secret, fileIds: 7 })), 400, "VALIDATION_ERROR");
    expect(await balance(c)).toBe(before);
    expect(await runsOf(c, w.id)).toEqual([]);
  });

  test("a body over 1 MiB is 413 before anything else", async () => {
    const { w, secret } = await setup();
    const big = JSON.stringify({ fileIds: [], pad: "x".repeat(1024 * 1024) });
    await expectRefused(await hook(w.id, big, await signed(secret, big)), 413, "PAYLOAD_TOO_LARGE");
  });

  test("workflow.webhook_enabled off: 403 FEATURE_DISABLED, nothing charged", async () => {
    const { c, w, secret } = await setup();
    const before = await balance(c);
    await setWorkflowConfig({ "workflow.webhook_enabled": false });
    try {
      const body = JSON.stringify({ fileIds: [] });
      await expectRefused(await hook(w.id, body, await signed(secret, body)), 403, "FEATURE_DISABLED");
      await expectRefused(await hook(w.id, JSON.stringify({ secret })), 403, "FEATURE_DISABLED");
    } finally {
      await setWorkflowConfig({ "workflow.webhook_enabled": true });
    }
    expect(await balance(c)).toBe(before);
    expect(await runsOf(c, w.id)).toEqual([]);
  });
});

describe("schedule", () => {
  /** A daily cron at the minute of `at` (UTC), far from the real clock so the 5-minute system job never fires it. */
  const dailyAt = (at: Date) => `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
  const pastMinute = (hoursAgo: number) => new Date(Math.floor((Date.now() - hoursAgo * 3_600_000) / 60_000) * 60_000);

  test("the dispatcher queues the window's fire time; already past, it runs at once, exactly once however often dispatched", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    const keep = await upload(c, "keep-1.pdf");
    await upload(c, "other.pdf");
    const w = await c.workflows.create({ name: "nightly", graphJson: linear(["in", "source.upload", { sinceLastRun: true, prefix: "keep" }], ["out", "sink.download"]) });
    const fireAt = pastMinute(6);
    const t = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: dailyAt(fireAt) } });
    const before = await balance(c);
    const now = new Date(fireAt.getTime() - 150_000);
    const first = await admin.admin.dispatchSchedules(now.toISOString());
    expect(first).toMatchObject({ windowStart: now.toISOString(), windowEnd: new Date(now.getTime() + 300_000).toISOString() });
    expect(first.fires.filter((f) => f.triggerId === t.id)).toEqual([{ triggerId: t.id, workflowId: w.id, fireAt: fireAt.toISOString() }]);
    const [run] = await waitFor("the scheduled run", () => runsOf(c, w.id), (r) => r.length > 0);
    const done = await c.workflows.waitFor(run.runId);
    // No files of its own: what source.upload's params pick (uploads since the last run named keep*).
    expect(done.run).toMatchObject({ status: "succeeded", trigger: "schedule", inputFileIds: [], outputFileIds: [keep] });
    expect(await balance(c)).toBe(before - run.credits);
    // Dispatched again (same window, an overlapping one): nothing more is queued or started.
    const second = await admin.admin.dispatchSchedules(now.toISOString());
    const third = await admin.admin.dispatchSchedules(new Date(fireAt.getTime() - 10_000).toISOString());
    expect([...second.fires, ...third.fires].filter((f) => f.triggerId === t.id)).toEqual([]);
    await queueIdle(["schedule.fire"]);
    expect((await runsOf(c, w.id)).length).toBe(1);
    // A window without the fire time queues nothing for it.
    const later = await admin.admin.dispatchSchedules(new Date(fireAt.getTime() + 60_000).toISOString());
    expect(later.fires.filter((f) => f.triggerId === t.id)).toEqual([]);
  });

  test("as of a `now` ahead of the clock: a fire time at `now` starts at once, a later one waits for its time; each starts one run", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    const db = srv.services.database.db;
    const deps = { db, config: srv.services.config, workflows: srv.services.workflows, log: srv.services.log };
    // The next 5-minute boundary, at least 90 s ahead, so a run started before it cannot be the clock getting there.
    const FIVE_MIN = 300_000;
    let boundary = Math.ceil(Date.now() / FIVE_MIN) * FIVE_MIN;
    if (boundary - Date.now() < 90_000) boundary += FIVE_MIN;
    const now = new Date(boundary);
    const later = new Date(boundary + 120_000);
    const fireJobs = (triggerId: string, at: Date) => db.select().from(job).where(eq(job.dedupeKey, `schedule.fire:${triggerId}:${at.toISOString()}`));

    // Queued by the automatic dispatcher before the call: delayed to its exact minute.
    const wPre = await c.workflows.create({ name: "every 5, queued before", graphJson: PASS });
    const tPre = await c.workflows.triggers.put(wPre.id, { type: "schedule", config: { cron: "*/5 * * * *" } });
    const auto = await dispatchSchedules(deps, new Date(boundary - 60_000), new Date(boundary + 240_000));
    expect(auto.fires.filter((f) => f.triggerId === tPre.id).map((f) => f.fireAt)).toEqual([now.toISOString()]);
    expect((await fireJobs(tPre.id, now)).map((j) => [j.status, j.runAfter.getTime()])).toEqual([["queued", boundary]]);

    const wNow = await c.workflows.create({ name: "every 5", graphJson: PASS });
    const tNow = await c.workflows.triggers.put(wNow.id, { type: "schedule", config: { cron: "*/5 * * * *" } });
    const wLater = await c.workflows.create({ name: "two minutes after", graphJson: PASS });
    const tLater = await c.workflows.triggers.put(wLater.id, { type: "schedule", config: { cron: dailyAt(later) } });
    try {
      const res = await admin.admin.dispatchSchedules(now.toISOString());
      const firesOf = (r: typeof res, triggerId: string) => r.fires.filter((f) => f.triggerId === triggerId).map((f) => f.fireAt);
      expect([firesOf(res, tNow.id), firesOf(res, tPre.id), firesOf(res, tLater.id)]).toEqual([[now.toISOString()], [now.toISOString()], [later.toISOString()]]);

      // Within seconds, not when the clock reaches the boundary (the wait gives up well before it).
      for (const w of [wNow, wPre]) {
        const [run] = await waitFor(`the run of ${w.name}`, () => runsOf(c, w.id), (r) => r.length > 0, 60_000);
        expect(run.trigger).toBe("schedule");
        expect(Date.parse(run.createdAt)).toBeLessThan(boundary);
      }
      // Later than `now`: still a delayed job for its own time, and no run.
      expect((await fireJobs(tLater.id, later)).map((j) => [j.status, j.runAfter.getTime()])).toEqual([["queued", later.getTime()]]);
      expect(await runsOf(c, wLater.id)).toEqual([]);

      // Dispatched again by hand, then automatically: nothing more is queued or started.
      const again = await admin.admin.dispatchSchedules(now.toISOString());
      const autoAgain = await dispatchSchedules(deps, now, new Date(boundary + FIVE_MIN));
      for (const r of [again, autoAgain]) expect([firesOf(r, tNow.id), firesOf(r, tPre.id), firesOf(r, tLater.id)]).toEqual([[], [], []]);
      await queueIdle(["schedule.fire"]);
      expect([(await runsOf(c, wNow.id)).length, (await runsOf(c, wPre.id)).length, (await runsOf(c, wLater.id)).length]).toEqual([1, 1, 0]);
      expect([(await fireJobs(tNow.id, now)).length, (await fireJobs(tPre.id, now)).length, (await fireJobs(tLater.id, later)).length]).toEqual([1, 1, 1]);
    } finally {
      // The clock reaches these fire times after the test: with the triggers gone, they start nothing.
      for (const [w, t] of [[wPre, tPre], [wNow, tNow], [wLater, tLater]] as const) await c.workflows.triggers.delete(w.id, t.id);
    }
  }, 120_000);

  test("a schedule at a minute that is not a multiple of 5 fires at its minute; every fire time in the window is queued", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    const w = await c.workflows.create({ name: "odd minutes", graphJson: PASS });
    const base = pastMinute(7);
    const start = new Date(base.getTime() - (base.getUTCMinutes() % 5) * 60_000); // a multiple of 5
    const minutes = [1, 3].map((m) => (start.getUTCMinutes() + m) % 60);
    const t = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: `${minutes.join(",")} ${start.getUTCHours()} * * *` } });
    const res = await admin.admin.dispatchSchedules(start.toISOString());
    expect(res.fires.filter((f) => f.triggerId === t.id).map((f) => f.fireAt)).toEqual([1, 3].map((m) => new Date(start.getTime() + m * 60_000).toISOString()));
    await waitFor("two scheduled runs", () => runsOf(c, w.id), (r) => r.length === 2);
    await queueIdle(["schedule.fire"]);
    expect((await runsOf(c, w.id)).map((r) => r.trigger)).toEqual(["schedule", "schedule"]);
  });

  test("workflow.schedule_enabled off: the dispatcher queues nothing and an already queued fire starts nothing", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    const w = await c.workflows.create({ name: "off", graphJson: PASS });
    const fireAt = pastMinute(8);
    const t = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: dailyAt(fireAt) } });
    await setWorkflowConfig({ "workflow.schedule_enabled": false });
    try {
      const res = await admin.admin.dispatchSchedules(new Date(fireAt.getTime() - 60_000).toISOString());
      expect(res).toMatchObject({ triggers: 0, fires: [] });
      // A fire queued before the switch went off.
      await enqueue(srv.services.database.db, { kind: "schedule.fire", data: { triggerId: t.id, fireAt: fireAt.toISOString() }, dedupeKey: `schedule.fire:${t.id}:${fireAt.toISOString()}` });
      await queueIdle(["schedule.fire"]);
      expect(await runsOf(c, w.id)).toEqual([]);
    } finally {
      await setWorkflowConfig({ "workflow.schedule_enabled": true });
    }
  });

  test("the owner without credits: the scheduled run is not started, nothing charged; a deleted trigger's queued fire starts nothing", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    await admin.admin.grantCredits({ email: c.email, amount: -(await balance(c)), reason: "test" });
    const w = await c.workflows.create({ name: "broke", graphJson: PASS });
    const fireAt = pastMinute(9);
    const t = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: dailyAt(fireAt) } });
    expect((await admin.admin.dispatchSchedules(new Date(fireAt.getTime() - 60_000).toISOString())).fires.filter((f) => f.triggerId === t.id).length).toBe(1);
    await queueIdle(["schedule.fire"]);
    expect(await runsOf(c, w.id)).toEqual([]);
    expect(await balance(c)).toBe(0);
    const gone = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: dailyAt(fireAt) } });
    await c.workflows.triggers.delete(w.id, gone.id);
    await admin.admin.grantCredits({ email: c.email, amount: 10, reason: "test" });
    await enqueue(srv.services.database.db, { kind: "schedule.fire", data: { triggerId: gone.id, fireAt: fireAt.toISOString() } });
    await queueIdle(["schedule.fire"]);
    expect(await runsOf(c, w.id)).toEqual([]);
  });

  test("dispatch-schedules is for admins: a user is 403, no login 401, a bad `now` 400", async () => {
    const c = await srv.user();
    await expectApiError(() => c.admin.dispatchSchedules(), "FORBIDDEN", 403);
    await expectApiError(() => srv.anon().admin.dispatchSchedules(), "UNAUTHORIZED", 401);
    await expectApiError(() => c.withToken("vk_x").admin.dispatchSchedules(), "UNAUTHORIZED", 401);
    await expectApiError(async () => (await srv.admin()).admin.dispatchSchedules("not a date"), "VALIDATION_ERROR", 400);
    const res = await (await srv.admin()).admin.dispatchSchedules();
    expect(Math.abs(new Date(res.windowEnd).getTime() - new Date(res.windowStart).getTime() - 300_000)).toBe(0);
    expect(Math.abs(new Date(res.windowStart).getTime() - Date.now())).toBeLessThan(60_000);
  });
});

describe("watch", () => {
  test("a matching confirmed upload starts one run with that file; a non-matching one does not", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "watcher", graphJson: PASS });
    await c.workflows.triggers.put(w.id, { type: "watch", config: { prefix: "scan", suffix: ".pdf" } });
    const before = await balance(c);
    const a = await upload(c, "scan-1.pdf");
    const b = await upload(c, "SCAN-2.PDF");
    await upload(c, "other.pdf");
    const runs = await waitFor("two watch runs", () => runsOf(c, w.id), (r) => r.length >= 2);
    await queueIdle(["watch.fire"]);
    expect((await runsOf(c, w.id)).length).toBe(2);
    expect(runs.map((r) => r.trigger)).toEqual(["watch", "watch"]);
    expect(runs.map((r) => r.inputFileIds[0]).sort()).toEqual([a, b].sort());
    expect(await balance(c)).toBe(before - runs[0].credits - runs[1].credits);
    // The same file fired again (a re-run job, another process): still one run for it.
    const [trigger] = await c.workflows.triggers.list(w.id);
    await enqueue(srv.services.database.db, { kind: "watch.fire", data: { triggerId: trigger.id, fileId: a } });
    await queueIdle(["watch.fire"]);
    expect((await runsOf(c, w.id)).length).toBe(2);
  });

  test("a URL import that completes fires the watch too", async () => {
    const c = await srv.user();
    await (await srv.admin()).admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${files.port}`] });
    const w = await c.workflows.create({ name: "imports", graphJson: PASS });
    await c.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf" } });
    const f = await c.files.importUrl({ url: `http://127.0.0.1:${files.port}/imported.pdf` });
    const [run] = await waitFor("the watch run", () => runsOf(c, w.id), (r) => r.length > 0);
    expect(run).toMatchObject({ trigger: "watch", inputFileIds: [f.fileId] });
  });

  test("outputs of a run never start a watch: a watching workflow does not feed itself", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "compress all", graphJson: linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]) });
    await c.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf" } });
    const input = await upload(c, "in.pdf");
    const [run] = await waitFor("the watch run", () => runsOf(c, w.id), (r) => r.length > 0);
    const done = await c.workflows.waitFor(run.runId);
    expect(done.run.status).toBe("succeeded");
    expect(done.run.outputFileIds.length).toBe(1);
    expect(done.run.outputFileIds[0]).not.toBe(input);
    expect((await c.files.get(done.run.outputFileIds[0])).filename).toMatch(/\.pdf$/);
    // A manual run's outputs do not either.
    const manual = await c.workflows.run(w.id, [input]);
    await c.workflows.waitFor(manual.runId);
    await queueIdle(["watch.fire"]);
    expect((await runsOf(c, w.id)).map((r) => r.trigger).sort()).toEqual(["manual", "watch"]);
  });

  test("another user's upload does not start the owner's watch", async () => {
    const owner = await srv.user();
    const other = await srv.user();
    const w = await owner.workflows.create({ name: "mine", graphJson: PASS });
    await owner.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf" } });
    await upload(other, "theirs.pdf");
    await queueIdle(["watch.fire"]);
    expect(await runsOf(owner, w.id)).toEqual([]);
  });

  test("workflow.watch_enabled off: nothing starts", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "off", graphJson: PASS });
    await c.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf" } });
    await setWorkflowConfig({ "workflow.watch_enabled": false });
    try {
      await upload(c, "a.pdf");
      await queueIdle(["watch.fire"]);
    } finally {
      await setWorkflowConfig({ "workflow.watch_enabled": true });
    }
    expect(await runsOf(c, w.id)).toEqual([]);
  });

  test("the owner without credits: the upload is answered as usual and no run starts", async () => {
    const c = await srv.user();
    await (await srv.admin()).admin.grantCredits({ email: c.email, amount: -(await balance(c)), reason: "test" });
    const w = await c.workflows.create({ name: "broke", graphJson: PASS });
    await c.workflows.triggers.put(w.id, { type: "watch", config: { suffix: ".pdf" } });
    const f = await upload(c, "a.pdf");
    expect((await c.files.get(f)).status).toBe("UPLOADED");
    await queueIdle(["watch.fire"]);
    expect(await runsOf(c, w.id)).toEqual([]);
    expect(await balance(c)).toBe(0);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two server processes on one PostgreSQL", () => {
  test("dispatching at the same moment in both starts each fire time exactly once", async () => {
    const secret = `test-secret-${crypto.randomUUID()}`;
    const a = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "1", BETTER_AUTH_SECRET: secret });
    const dataDir = mkdtempSync(join(tmpdir(), "vektor-test-b-"));
    const port = await freePort();
    const baseB = `http://127.0.0.1:${port}`;
    let b: Awaited<ReturnType<typeof spawnServer>> | null = null;
    try {
      b = await spawnServer(
        { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: a.services.env.databaseUrl!, BETTER_AUTH_SECRET: secret, ADMIN_EMAILS: ADMIN_EMAIL, LOG_LEVEL: "silent", JOB_POLL_MS: "100", TOOL_WORKERS: "1" },
        baseB,
      );
      const c = await a.user();
      const adminA = await a.admin();
      const adminB = new VektorClient({ baseUrl: baseB });
      await adminB.auth.signIn({ email: ADMIN_EMAIL, password: PASSWORD });
      const w = await c.workflows.create({ name: "every minute", graphJson: PASS });
      const t = await c.workflows.triggers.put(w.id, { type: "schedule", config: { cron: "* * * * *" } });
      const now = new Date(Math.floor((Date.now() - 3 * 3_600_000) / 60_000) * 60_000);
      const before = (await c.account()).credits;
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all([adminA.admin.dispatchSchedules(now.toISOString()), adminB.admin.dispatchSchedules(now.toISOString())]);
        const fires = answers.flatMap((r) => r.fires.filter((f) => f.triggerId === t.id).map((f) => f.fireAt));
        if (round === 0) expect(new Set(fires).size).toBe(5);
      }
      const runs = async () => (await c.workflows.runs(w.id, { limit: 200 })).items;
      await waitFor("five scheduled runs", runs, (r) => r.length >= 5, 30_000);
      await queueIdle(["schedule.fire"], a);
      expect((await runs()).length).toBe(5);
      expect((await c.account()).credits).toBe(before - 5);
    } finally {
      b?.kill();
      await b?.exited;
      await a.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
