/**
 * Issue 22, items 7 and 11 over real HTTP: a batch's name (given, trimmed, refused when blank or
 * holding control characters, renamed later, named by the credit ledger), its items' outputs by name, the admin settings'
 * descriptions and units, a refused setting answered in one sentence, and a single server run
 * that costs no credits.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Batch, BatchDetail } from "@vektor/shared/schemas/batch";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { makePdf } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ JOB_POLL_MS: "100" });
});
afterAll(() => srv.close());

type Client = Awaited<ReturnType<TestServer["user"]>>;

async function pdfs(c: Client, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await c.files.upload(new Blob([await makePdf(1, `named ${i}`)]), { filename: `page${i}.pdf`, mime: "application/pdf" })).fileId);
  return ids;
}

const create = (c: Client, fileIds: string[], name?: string) => c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.rotate", fileIds, params: { degrees: 90 }, ...(name === undefined ? {} : { name }) });

describe("a batch's name", () => {
  test("given at creation (trimmed), the tool and count when none; renamed later, in the list, the detail and the ZIP's name", async () => {
    const c = await srv.user();
    const ids = await pdfs(c, 2);
    const unnamed = await create(c, [ids[0]]);
    expect((await c.batches.get(unnamed.batchId)).batch.name).toBe("pdf.rotate x 1");

    const { batchId } = await create(c, ids, "  Site plans, March  ");
    expect((await c.batches.get(batchId)).batch.name).toBe("Site plans, March");
    await c.batches.waitFor(batchId);

    const renamed: Batch = await c.batches.rename(batchId, " Site plans, April ");
    expect(renamed).toMatchObject({ batchId, name: "Site plans, April", status: "completed", total: 2, done: 2 });
    expect((await c.batches.get(batchId)).batch.name).toBe("Site plans, April");
    expect((await c.batches.list()).items.find((b) => b.batchId === batchId)?.name).toBe("Site plans, April");
    const zip = await c.t.fetch(`/api/batch/${batchId}/zip`);
    expect(zip.headers.get("content-disposition")).toContain('filename="Site_plans_April.zip"');

    // The ledger names the batch each charge was for, as it is called now; other entries name nothing.
    const ledger = await c.credits();
    expect(ledger.find((e) => e.ref === batchId)).toMatchObject({ reason: "batch", amount: -3, refName: "Site plans, April" });
    expect(ledger.find((e) => e.ref === unnamed.batchId)?.refName).toBe("pdf.rotate x 1");
    expect(ledger.find((e) => e.reason === "signup_grant")?.refName).toBeNull();
    // Another user's batch id in a ledger never lends its name (refs are joined within the owner).
    const other = await srv.user();
    expect((await other.credits()).every((e) => e.refName === null)).toBe(true);
  });

  test("blank, too long or with control characters: 400 at creation and on rename, nothing changed; another user's batch is 404", async () => {
    const c = await srv.user();
    const ids = await pdfs(c, 1);
    for (const bad of ["   ", "two\nlines", "tab\there", "x".repeat(201), ""]) {
      await expectApiError(() => create(c, ids, bad), "VALIDATION_ERROR", 400);
    }
    expect((await c.batches.list()).items).toHaveLength(0);

    const { batchId } = await create(c, ids, "Kept");
    for (const bad of ["   ", "two\nlines", "bell\u0007", "x".repeat(201)]) {
      await expectApiError(() => c.batches.rename(batchId, bad), "VALIDATION_ERROR", 400);
    }
    await expectApiError(() => c.t.call("PATCH", `/api/batch/${batchId}`, { name: "Fine", type: "pdf.compress" }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("PATCH", `/api/batch/${batchId}`, {}), "VALIDATION_ERROR", 400);
    expect((await c.batches.get(batchId)).batch.name).toBe("Kept");

    const other = await srv.user();
    await expectApiError(() => other.batches.rename(batchId, "Mine now"), "NOT_FOUND", 404);
    await expectApiError(() => c.batches.rename("b_nope", "Anything"), "NOT_FOUND", 404);
    expect((await c.batches.get(batchId)).batch.name).toBe("Kept");
    // 200 characters is the most, and still a name.
    expect((await c.batches.rename(batchId, "y".repeat(200))).name).toHaveLength(200);
  });
});

describe("a batch's items", () => {
  test("each succeeded item names its outputs (file id, name, size), which download as those bytes", async () => {
    const c = await srv.user();
    const ids = await pdfs(c, 2);
    const { batchId } = await create(c, ids, "Outputs");
    await c.batches.waitFor(batchId);
    const d: BatchDetail = await c.batches.get(batchId);
    for (const item of d.files) {
      expect(item.outputs).toHaveLength(1);
      const [out] = item.outputs;
      expect(out.fileId).toBe(item.outFileId!);
      expect(out.filename).toMatch(/\.pdf$/);
      expect(out.filename).not.toBe(item.filename);
      const res = await c.files.download(out.fileId);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(out.size);
    }
  });
});

describe("admin settings in words", () => {
  test("every key has a description, numbers their unit and range; anyone but an admin is refused", async () => {
    const a = await srv.admin();
    const keys = await a.admin.configKeys();
    const grouped = await a.admin.config();
    const names = Object.values(grouped).flatMap((g) => Object.keys(g));
    expect(keys.map((k) => k.key).sort()).toEqual(names.sort());
    for (const k of keys) {
      expect(k.description.length).toBeGreaterThan(10);
      if (k.kind === "number") expect(k.unit).toBeTruthy();
    }
    expect(keys.find((k) => k.key === "batch.max_files_free")).toMatchObject({ group: "batch_configs", kind: "number", unit: "files", minimum: 1, maximum: 10_000, default: 20 });
    expect(keys.find((k) => k.key === "batch.enabled")).toMatchObject({ kind: "switch", unit: null });
    expect(keys.find((k) => k.key === "net.allow_hosts")).toMatchObject({ kind: "list", maxItems: 100, maxLength: 260 });
    expect(keys.find((k) => k.key === "email.smtp_url")).toMatchObject({ kind: "text", secret: true, maxLength: 2048 });

    await expectApiError(() => srv.anon().admin.configKeys(), "UNAUTHORIZED", 401);
    await expectApiError(async () => (await srv.user()).admin.configKeys(), "FORBIDDEN", 403);
  });

  test("a refused value is answered in one sentence naming the setting, its range and unit; nothing is stored", async () => {
    const a = await srv.admin();
    const refused = async (group: string, patch: Record<string, unknown>) => {
      try {
        await a.admin.setConfig(group, patch);
      } catch (err) {
        expect((err as { code: string }).code).toBe("VALIDATION_ERROR");
        return (err as Error).message;
      }
      throw new Error("the value was accepted");
    };
    expect(await refused("batch_configs", { "batch.max_files_free": 0 })).toBe("Most files in one batch, free plan (batch.max_files_free) must be a whole number from 1 to 10,000 files.");
    expect(await refused("batch_configs", { "batch.max_files_free": 2.5 })).toBe("Most files in one batch, free plan (batch.max_files_free) must be a whole number from 1 to 10,000 files.");
    expect(await refused("batch_configs", { "batch.enabled": "yes" })).toBe("Batches can be created; when off, creating one is refused (batch.enabled) must be on or off.");
    expect(await refused("platform_configs", { "net.allow_hosts": [""] })).toBe(
      "Hosts that URL imports and webhooks may reach even though they resolve to private addresses (net.allow_hosts) must be a list of at most 100 entries, each 1 to 260 characters.",
    );
    expect((await a.admin.config()).batch_configs["batch.max_files_free"]).toBe(20);
  });
});

describe("single server runs", () => {
  test("a tool run on the server (either call the app uses) leaves the balance and the ledger as they were", async () => {
    const c = await srv.user();
    const [id] = await pdfs(c, 1);
    const balance = (await c.account()).credits;
    const ledger = await c.credits();
    const direct = await c.tools.run("pdf.rotate", [id], { params: { degrees: 90 } });
    expect(direct.status).toBe("succeeded");
    const queued = await c.jobs.wait(await c.jobs.create({ type: "pdf.rotate", fileIds: [id], params: { degrees: 180 } }));
    expect(queued.status).toBe("succeeded");
    expect((await c.account()).credits).toBe(balance);
    expect(await c.credits()).toEqual(ledger);
  });
});
