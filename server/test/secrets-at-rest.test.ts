/**
 * Secrets at rest (issue 18, item 5): a workflow's notifySecret is sealed like a trigger's and
 * never returned. A dump of the whole database (Debian's pg_dump on PostgreSQL; every row of
 * every table as text on PGlite, which has no pg_dump here) holds no API token, trigger secret
 * or notifySecret in plain text; signing keeps working through edits (PUT without notifySecret
 * keeps it, null removes it), version restore, templates and sub-workflows; and plain-text
 * secrets left by older versions are sealed at the next start.
 */
import { signWebhook, VektorClient } from "@vektor/shared/client";
import type { RunDetail, Workflow } from "@vektor/shared/schemas/workflow";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../src/boot";
import { openDatabase, resultRows, type Db } from "../src/db/client";
import { readEnv } from "../src/env";
import { sealPlaintextNotifySecrets } from "../src/workflows/notify/secret";
import { ADMIN_EMAIL, expectApiError, freePort, PASSWORD, spawnedDatabase, startTestServer, waitFor, type TestServer } from "./harness";
import { linear } from "./graphs";

/** A loopback receiver recording every request (its port is let through the address guard). */
function receiver() {
  const got: { path: string; headers: Headers; body: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      got.push({ path: new URL(req.url).pathname, headers: req.headers, body: await req.text() });
      return new Response("ok");
    },
  });
  return { got, server, url: (path: string) => `http://127.0.0.1:${server.port}${path}` };
}

const PASS = linear(["in", "source.upload"], ["out", "sink.download"]);
const GATED = linear(["in", "source.upload"], ["gate", "logic.approval"], ["out", "sink.download"]);
const params = (p: Record<string, unknown>) => JSON.stringify(p);

/** The newest Debian pg_dump (the one of the server the tests start). */
function pgDump(): string {
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "pg_dump"))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new Error("pg_dump not found under /usr/lib/postgresql/*/bin (Debian's postgresql-client)");
  return join(base, versions[0], "bin", "pg_dump");
}

/**
 * Everything the database holds, as text. PostgreSQL: pg_dump of the whole database (schema and
 * data). PGlite: no pg_dump (@electric-sql/pglite-tools is not installed), so every row of every
 * table in every schema (public with Better Auth's tables, drizzle's) as its text form.
 */
async function dump(db: Db, databaseUrl: string | null): Promise<string> {
  if (databaseUrl) {
    const p = Bun.spawnSync([pgDump(), "--no-owner", "--dbname", databaseUrl], { stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`pg_dump failed: ${p.stderr.toString()}`);
    return p.stdout.toString();
  }
  const tables = resultRows<{ s: string; t: string }>(
    await db.execute(sql`select table_schema as s, table_name as t from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`),
  );
  expect(tables.map((t) => t.t)).toEqual(expect.arrayContaining(["user", "session", "api_token", "workflow", "workflow_version", "workflow_run", "workflow_template", "workflow_trigger", "delivery", "job"]));
  const parts: string[] = [];
  for (const { s, t } of tables) {
    const rows = resultRows<{ row: string }>(await db.execute(sql.raw(`select x::text as row from "${s}"."${t}" x`)));
    parts.push(`-- ${s}.${t}`, ...rows.map((r) => r.row));
  }
  return parts.join("\n");
}

/** The run's webhook delivery once it got through, and the request the receiver got for it. */
async function delivered(c: VektorClient, recv: ReturnType<typeof receiver>, runId: string) {
  const ok = (d: RunDetail) => d.deliveries.some((x) => x.channel === "webhook" && x.status === "succeeded");
  await waitFor(`the delivery of ${runId}`, () => c.workflows.runDetail(runId), ok, 60_000);
  const req = recv.got.find((r) => r.body.includes(runId));
  if (!req) throw new Error(`the receiver got nothing for ${runId}`);
  return req;
}

/** Which of `secrets` signed the request (null: unsigned). */
async function signedWith(req: { headers: Headers; body: string }, secrets: string[]): Promise<string | null> {
  const sig = req.headers.get("x-service-signature");
  if (sig === null) return null;
  const ts = req.headers.get("x-service-timestamp")!;
  for (const s of secrets) if ((await signWebhook(s, ts, req.body)) === sig) return s;
  return "(an unknown secret)";
}

/** paramsJson as answers show it, parsed. */
const shown = (w: Pick<Workflow, "paramsJson">) => JSON.parse(w.paramsJson ?? "null") as Record<string, unknown> | null;

describe("on one server", () => {
  let srv: TestServer;
  let recv: ReturnType<typeof receiver>;
  beforeAll(async () => {
    srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "1", NOTIFY_RETRY_BASE_MS: "20" });
    recv = receiver();
    await (await srv.admin()).admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${recv.server.port}`] });
  });
  afterAll(async () => {
    await srv.close();
    recv.server.stop(true);
  });

  test("a database dump after creating a token, a webhook trigger and a workflow with notifySecret holds none of the three in plain text", async () => {
    const c = await srv.user();
    const notifySecret = `ns-${crypto.randomUUID()}`;
    const token = (await c.tokens.create({ name: "ci" })).token;
    const w = await c.workflows.create({ name: "Nightly drawings 7f3a9c", graphJson: PASS, paramsJson: params({ notifyUrl: recv.url("/dump"), notifySecret }) });
    expect(w.notifySecretSet).toBe(true);
    expect(shown(w)).toEqual({ notifyUrl: recv.url("/dump") });
    const trigger = await c.workflows.triggers.put(w.id, { type: "webhook" });
    // Every table the secrets could reach: a version, a template, a run and its delivery, a hook call.
    await c.workflows.update(w.id, { name: "Nightly drawings 7f3a9c (v2)" });
    await c.workflows.templates.create({ name: "tpl 7f3a9c", graphJson: PASS, paramsJson: params({ notifyUrl: recv.url("/dump"), notifySecret }) });
    const { runId } = await c.workflows.hook(w.id, {}, { signWith: trigger.secret });
    expect(await signedWith(await delivered(c, recv, runId), [notifySecret])).toBe(notifySecret);

    // No answer carries it either.
    const answers = JSON.stringify([await c.workflows.get(w.id), await c.workflows.list(), await c.workflows.templates.list(), await c.workflows.versions(w.id), await c.workflows.runDetail(runId)]);
    expect(answers).not.toContain(notifySecret);
    expect(answers).toContain('"notifySecretSet":true');

    // The SMTP URL holds a password: the admin reads it back, the database holds it sealed.
    const admin = await srv.admin();
    const smtpPassword = `smtp-${crypto.randomUUID()}`;
    await admin.admin.setConfig("platform_configs", { "email.smtp_url": `smtp://mailer:${smtpPassword}@127.0.0.1:2525` });
    expect(JSON.stringify(await admin.admin.config())).toContain(smtpPassword);

    const text = await dump(srv.services.database.db, srv.services.env.databaseUrl);
    // The dump is real: what is not secret is there in plain text.
    expect(text).toContain("Nightly drawings 7f3a9c (v2)");
    expect(text).toContain(recv.url("/dump"));
    expect(text).toContain(runId);
    for (const [what, secret] of [["API token", token], ["webhook trigger secret", trigger.secret], ["notifySecret", notifySecret], ["SMTP password", smtpPassword]]) {
      expect({ what, inDump: text.includes(secret) }).toEqual({ what, inDump: false });
    }
  });

  test("PUT without notifySecret keeps it, a new one replaces it, null removes it; restore brings back a version's; the run's is the one set when it started", async () => {
    const c = await srv.user();
    const [first, second] = ["first-secret-111", "second-secret-222"];
    const all = [first, second];
    const run = async (id: string) => (await c.workflows.run(id, [])).runId;
    const signer = async (id: string) => signedWith(await delivered(c, recv, await run(id)), all);

    const w = await c.workflows.create({ name: "edits", graphJson: PASS, paramsJson: params({ notifyUrl: recv.url("/a"), notifySecret: first }) });
    expect(await signer(w.id)).toBe(first);
    // Other options edited, notifySecret not named: kept.
    const edited = await c.workflows.update(w.id, { paramsJson: params({ notifyUrl: recv.url("/b") }) });
    expect({ set: edited.notifySecretSet, params: shown(edited) }).toEqual({ set: true, params: { notifyUrl: recv.url("/b") } });
    expect(await signer(w.id)).toBe(first);
    // paramsJson as GET returns it, sent back with a new name: kept.
    const got = await c.workflows.get(w.id);
    expect((await c.workflows.update(w.id, { name: "renamed", paramsJson: got.paramsJson! })).notifySecretSet).toBe(true);
    expect(await signer(w.id)).toBe(first);
    // A run started now keeps the secret it started with, whatever the workflow gets later.
    const gated = await c.workflows.create({ name: "gated", graphJson: GATED, paramsJson: params({ notifyUrl: recv.url("/gated"), notifySecret: first }) });
    const waiting = await run(gated.id);
    await c.workflows.waitFor(waiting, { until: ["waiting_approval"] });
    await c.workflows.update(gated.id, { paramsJson: params({ notifyUrl: recv.url("/gated"), notifySecret: second }) });
    await c.workflows.approve(waiting, { decision: "approved" });
    expect(await signedWith(await delivered(c, recv, waiting), all)).toBe(first);
    // A new value replaces it; null removes it.
    expect((await c.workflows.update(w.id, { paramsJson: params({ notifyUrl: recv.url("/b"), notifySecret: second }) })).notifySecretSet).toBe(true);
    expect(await signer(w.id)).toBe(second);
    const removed = await c.workflows.update(w.id, { paramsJson: params({ notifyUrl: recv.url("/b"), notifySecret: null }) });
    expect({ set: removed.notifySecretSet, params: shown(removed) }).toEqual({ set: false, params: { notifyUrl: recv.url("/b") } });
    expect(await signer(w.id)).toBeNull();
    // Restoring the first version brings back its options and its secret.
    const restored = await c.workflows.restore(w.id, w.versionId);
    expect({ set: restored.notifySecretSet, params: shown(restored) }).toEqual({ set: true, params: { notifyUrl: recv.url("/a") } });
    expect(await signer(w.id)).toBe(first);
    // An empty paramsJson removes every option, the secret included.
    expect((await c.workflows.update(w.id, { paramsJson: "" })).notifySecretSet).toBe(false);
    // Checked as before: too short or not a string is 400.
    await expectApiError(() => c.workflows.update(w.id, { paramsJson: params({ notifySecret: "short" }) }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.update(w.id, { paramsJson: params({ notifySecret: 12345678 }) }), "VALIDATION_ERROR", 400);
    expect((await c.workflows.create({ name: "none", graphJson: PASS, paramsJson: params({ notifySecret: null }) })).notifySecretSet).toBe(false);
  });

  test("templates keep a secret sealed and never show it; a template made from a workflow's answer has none; a sub-workflow's secret is not the run's", async () => {
    const c = await srv.user();
    const tpl = await c.workflows.templates.create({ name: "with secret", graphJson: PASS, paramsJson: params({ notifyUrl: recv.url("/t"), notifySecret: "template-secret-1" }) });
    expect({ set: tpl.notifySecretSet, params: shown(tpl) }).toEqual({ set: true, params: { notifyUrl: recv.url("/t") } });
    const listed = await c.workflows.templates.list();
    expect(JSON.stringify(listed)).not.toContain("template-secret-1");
    expect(listed.filter((t) => t.builtIn).every((t) => t.notifySecretSet === false)).toBe(true);

    const child = await c.workflows.create({ name: "child", graphJson: PASS, paramsJson: params({ notifyUrl: recv.url("/child"), notifySecret: "child-secret-1" }) });
    const parent = await c.workflows.create({
      name: "parent",
      graphJson: linear(["in", "source.upload"], ["sub", "op.workflow", { workflowId: child.id }], ["out", "sink.download"]),
      paramsJson: params({ notifyUrl: recv.url("/parent"), notifySecret: "parent-secret-1" }),
    });
    // A personal template made from the workflow as GET shows it: its options, no secret.
    const got = await c.workflows.get(parent.id);
    const fromWorkflow = await c.workflows.templates.create({ name: "from parent", graphJson: got.graphJson, paramsJson: got.paramsJson! });
    expect({ set: fromWorkflow.notifySecretSet, params: fromWorkflow.paramsJson }).toEqual({ set: false, params: got.paramsJson });
    const { runId } = await c.workflows.run(parent.id, []);
    const req = await delivered(c, recv, runId);
    expect(req.path).toBe("/parent");
    expect(await signedWith(req, ["parent-secret-1", "child-secret-1"])).toBe("parent-secret-1");
    expect(recv.got.filter((r) => r.body.includes(runId))).toHaveLength(1);
  });
});

describe("plain-text notifySecrets from before migration 0010", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "vektor-secrets-"));
  let dropDb: () => Promise<void> = async () => {};
  const recv = receiver();
  afterAll(async () => {
    recv.server.stop(true);
    await dropDb();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("are sealed at the next start (once, idempotent), leave params_json, and still sign", async () => {
    const port = await freePort();
    const vars: Record<string, string> = { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "silent", TOOL_WORKERS: "1", JOB_POLL_MS: "100", NOTIFY_RETRY_BASE_MS: "20", ADMIN_EMAILS: ADMIN_EMAIL };
    dropDb = await spawnedDatabase(vars);
    const env = readEnv(vars);
    const legacy = `legacy-${crypto.randomUUID()}`;
    const legacyParams = (path: string) => params({ notifyUrl: recv.url(path), notifySecret: legacy });

    let running = await startServer(env);
    const c = new VektorClient({ baseUrl: running.url });
    let wf!: Workflow;
    let templateId!: string;
    let waitingRun!: string;
    try {
      const admin = new VektorClient({ baseUrl: running.url });
      await admin.auth.signUp({ name: "admin", email: ADMIN_EMAIL, password: PASSWORD });
      await admin.admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${recv.server.port}`] });
      await c.auth.signUp({ name: "legacy", email: "legacy@example.test", password: PASSWORD });
      wf = await c.workflows.create({ name: "legacy", graphJson: GATED, paramsJson: params({ notifyUrl: recv.url("/legacy") }) });
      templateId = (await c.workflows.templates.create({ name: "legacy tpl", graphJson: PASS })).id;
      waitingRun = (await c.workflows.run(wf.id, [])).runId;
      await c.workflows.waitFor(waitingRun, { until: ["waiting_approval"] });
    } finally {
      await running.stop();
    }

    // The rows as an older version wrote them: the secret in params_json, nothing sealed.
    const old = await openDatabase({ databaseUrl: env.databaseUrl, dataDir });
    try {
      for (const [table, key] of [["workflow", "id"], ["workflow_version", "workflow_id"], ["workflow_run", "workflow_id"]] as const) {
        await old.db.execute(sql.raw(`update "${table}" set params_json = '${legacyParams("/legacy")}', notify_secret_sealed = null where "${key}" = '${wf.id}'`));
      }
      await old.db.execute(sql.raw(`update "workflow_template" set params_json = '${legacyParams("/tpl")}' where id = '${templateId}'`));
      // A secret setting as it was stored before settings were sealed.
      await old.db.execute(sql.raw(`insert into setting ("group", key, value) values ('platform_configs', 'email.smtp_url', '"smtp://mailer:${legacy}@127.0.0.1:2525"') on conflict ("group", key) do update set value = excluded.value`));
      expect((await dump(old.db, env.databaseUrl)).includes(legacy)).toBe(true);
    } finally {
      await old.close();
    }

    running = await startServer(env);
    try {
      const db = running.services.database.db;
      const text = await dump(db, env.databaseUrl);
      expect(text).toContain(recv.url("/legacy"));
      expect(text.includes(legacy)).toBe(false);
      expect(await running.services.config.get("email.smtp_url")).toBe(`smtp://mailer:${legacy}@127.0.0.1:2525`);
      type Row = { params_json: string; notify_secret_sealed: string | null };
      const rows = async () => [
        ...resultRows<Row>(await db.execute(sql.raw(`select params_json, notify_secret_sealed from workflow where id = '${wf.id}'`))),
        ...resultRows<Row>(await db.execute(sql.raw(`select params_json, notify_secret_sealed from workflow_version where workflow_id = '${wf.id}'`))),
        ...resultRows<Row>(await db.execute(sql.raw(`select params_json, notify_secret_sealed from workflow_run where workflow_id = '${wf.id}'`))),
        ...resultRows<Row>(await db.execute(sql.raw(`select params_json, notify_secret_sealed from workflow_template where id = '${templateId}'`))),
      ];
      const sealed = await rows();
      expect(sealed).toHaveLength(4);
      for (const r of sealed) {
        expect(JSON.parse(r.params_json)).toEqual({ notifyUrl: expect.stringContaining(recv.url("/")) });
        expect(r.notify_secret_sealed).toMatch(/^v1\./);
      }
      // Idempotent: nothing left to seal, nothing rewritten.
      expect(await sealPlaintextNotifySecrets(db, running.services.notifySecrets)).toBe(0);
      expect(await rows()).toEqual(sealed);

      const w = await c.workflows.get(wf.id);
      expect({ set: w.notifySecretSet, params: shown(w) }).toEqual({ set: true, params: { notifyUrl: recv.url("/legacy") } });
      expect((await c.workflows.templates.list()).find((t) => t.id === templateId)?.notifySecretSet).toBe(true);
      // The run started before the upgrade signs with its (now sealed) secret, and so does a new one.
      await c.workflows.approve(waitingRun, { decision: "approved" });
      expect(await signedWith(await delivered(c, recv, waitingRun), [legacy])).toBe(legacy);
      const fresh = (await c.workflows.run(wf.id, [])).runId;
      await c.workflows.waitFor(fresh, { until: ["waiting_approval"] });
      await c.workflows.approve(fresh, { decision: "approved" });
      expect(await signedWith(await delivered(c, recv, fresh), [legacy])).toBe(legacy);
    } finally {
      await running.stop();
    }
  }, 300_000);
});
