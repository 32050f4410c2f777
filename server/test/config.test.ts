/** Admin configuration, public configuration views, credit grants, audit log. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auditRows } from "../src/config/service";
import { CONFIG_KEYS } from "../src/config/keys";
import { expectApiError, startTestServer, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer()));
afterAll(() => srv.close());

describe("admin configuration", () => {
  test("GET lists the three groups with every key of the contract and its default", async () => {
    const a = await srv.admin();
    const cfg = await a.admin.config();
    expect(Object.keys(cfg).sort()).toEqual(["batch_configs", "platform_configs", "workflow_configs"]);
    expect(cfg.batch_configs).toEqual({
      "batch.enabled": true,
      "batch.max_files_free": 20,
      "batch.max_files_pro": 500,
      "batch.max_size_mb_free": 200,
      "batch.max_size_mb_pro": 5000,
      "batch.base_credits": 1,
      "batch.per_file_credits": 1,
    });
    expect(cfg.workflow_configs).toEqual({
      "workflow.enabled": true,
      "workflow.max_steps": 25,
      "workflow.base_credits": 1,
      "workflow.per_step_credits": 1,
      "workflow.webhook_enabled": true,
      "workflow.schedule_enabled": true,
      "workflow.watch_enabled": true,
      "workflow.notify_email_enabled": false,
      "workflow.approval_timeout_seconds_default": 86400,
    });
    expect(cfg.platform_configs).toEqual({
      "credits.signup_grant": 100,
      "email.smtp_url": "",
      "upload.max_size_mb": 2048,
      "import.max_size_mb": 200,
      "upload.multipart_threshold_mb": 64,
      "upload.part_size_mb": 16,
      "net.allow_hosts": [],
      "processing.cloud_enabled": true,
      "processing.browser_max_mb": 512,
      "processing.max_concurrent_per_user": 4,
      "processing.max_concurrent": 0,
      "retention.upload_hours": 24,
      "retention.output_hours": 72,
      "ratelimit.per_minute": 600,
    });
  });

  test("PUT validates, applies at once without restart, and is audit-logged", async () => {
    const a = await srv.admin();
    const out = await a.admin.setConfig("batch_configs", { "batch.max_files_free": 7, "batch.enabled": false });
    expect(out["batch.max_files_free"]).toBe(7);
    expect(await srv.anon().config.thresholds(["batch.max_files_free"])).toEqual({ "batch.max_files_free": 7 });
    expect(await srv.anon().config.flags(["batch.enabled"])).toEqual({ "batch.enabled": false });
    const audit = await auditRows(srv.services.database.db, "config.update");
    expect(audit.at(-1)?.detail).toEqual({ "batch.max_files_free": { from: 20, to: 7 }, "batch.enabled": { from: true, to: false } });
    await a.admin.setConfig("batch_configs", { "batch.max_files_free": 20, "batch.enabled": true });
  });

  test("bad updates are 400 and change nothing", async () => {
    const a = await srv.admin();
    const cases: [string, Record<string, unknown>][] = [
      ["batch_configs", { "batch.unknown": 1 }],
      ["batch_configs", { "upload.max_size_mb": 5 }], // a key of another group
      ["batch_configs", { "batch.max_files_free": "ten" }],
      ["batch_configs", { "batch.max_files_free": 0 }],
      ["batch_configs", { "batch.max_files_free": 1.5 }],
      ["batch_configs", { "batch.max_files_free": 5, "batch.enabled": "yes" }], // all or nothing
      ["platform_configs", { "net.allow_hosts": "localhost" }],
      ["batch_configs", {}],
      ["no_such_group", { "batch.enabled": true }],
    ];
    for (const [group, patch] of cases) await expectApiError(() => a.admin.setConfig(group, patch), "VALIDATION_ERROR", 400);
    expect((await a.admin.config()).batch_configs["batch.max_files_free"]).toBe(20);
  });

  test("malformed JSON is 400 VALIDATION_ERROR", async () => {
    const a = await srv.admin();
    const res = await a.t.fetch("/api/admin/config/batch_configs", { method: "PUT", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
  });

  test("non-admins get 403 FORBIDDEN", async () => {
    const c = await srv.user();
    await expectApiError(() => c.admin.config(), "FORBIDDEN", 403);
    await expectApiError(() => c.admin.setConfig("batch_configs", { "batch.enabled": false }), "FORBIDDEN", 403);
    await expectApiError(() => c.admin.grantCredits({ email: c.email, amount: 5, reason: "x" }), "FORBIDDEN", 403);
    await expectApiError(() => c.admin.runRetention(), "FORBIDDEN", 403);
  });
});

describe("public configuration", () => {
  test("each view shows its keys; secrets and the allow-list never appear", async () => {
    const anon = srv.anon();
    const a = await srv.admin();
    await a.admin.setConfig("platform_configs", { "email.smtp_url": "smtp://user:hunter2@127.0.0.1:2525", "net.allow_hosts": ["127.0.0.1"] });
    const views = { public: await anon.config.public(), flags: await anon.config.flags(), thresholds: await anon.config.thresholds() };
    const all = JSON.stringify(views);
    expect(all).not.toContain("hunter2");
    expect(all).not.toContain("email.smtp_url");
    expect(all).not.toContain("net.allow_hosts");
    expect(views.flags).toEqual({
      "batch.enabled": true,
      "workflow.enabled": true,
      "workflow.webhook_enabled": true,
      "workflow.schedule_enabled": true,
      "workflow.watch_enabled": true,
      "workflow.notify_email_enabled": false,
      "processing.cloud_enabled": true,
    });
    expect(views.public).toEqual({ "credits.signup_grant": 100, "retention.upload_hours": 24, "retention.output_hours": 72 });
    expect(Object.keys(views.thresholds)).toContain("batch.max_files_pro");
    const shown = new Set([...Object.keys(views.public), ...Object.keys(views.flags), ...Object.keys(views.thresholds)]);
    expect(shown.size).toBe(Object.values(CONFIG_KEYS).filter((k) => k.exposure).length);
    await a.admin.setConfig("platform_configs", { "email.smtp_url": "", "net.allow_hosts": [] });
  });

  test("keys filters by comma-separated names; secret names give nothing; malformed is 400", async () => {
    const anon = srv.anon();
    expect(await anon.config.thresholds(["batch.max_files_free", "upload.max_size_mb"])).toEqual({ "batch.max_files_free": 20, "upload.max_size_mb": 2048 });
    expect(await anon.config.public(["email.smtp_url"])).toEqual({});
    const res = await fetch(`${srv.url}/api/config/flags?keys=${encodeURIComponent("batch.enabled,,x y")}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
  });
});

describe("admin credits", () => {
  test("grant and debit by e-mail, recorded in the ledger; never below zero", async () => {
    const a = await srv.admin();
    const c = await srv.user();
    expect((await a.admin.grantCredits({ email: c.email, amount: 50, reason: "promo" })).credits).toBe(150);
    expect((await a.admin.grantCredits({ email: c.email, amount: -30, reason: "correction" })).credits).toBe(120);
    await expectApiError(() => a.admin.grantCredits({ email: c.email, amount: -1000, reason: "too much" }), "INSUFFICIENT_CREDITS", 402);
    expect((await c.account()).credits).toBe(120);
    expect((await c.credits()).map((e) => e.amount)).toEqual([-30, 50, 100]);
    await expectApiError(() => a.admin.grantCredits({ email: "nobody@example.test", amount: 1, reason: "x" }), "NOT_FOUND", 404);
  });

  test("a changed sign-up grant applies to the next account", async () => {
    const a = await srv.admin();
    await a.admin.setConfig("platform_configs", { "credits.signup_grant": 5 });
    expect((await (await srv.user()).account()).credits).toBe(5);
    await a.admin.setConfig("platform_configs", { "credits.signup_grant": 100 });
  });
});
