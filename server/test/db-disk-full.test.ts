/**
 * The embedded database on a full disk, for real: the whole DATA_DIR (PGlite's files and the
 * objects) is a small tmpfs. While it is full a write answers 503 STORAGE_FULL with Retry-After
 * and changes nothing, health names the failing check, reads still answer, and once space is
 * freed the same write succeeds and nothing written before was lost. PGlite only: on the suite's
 * PostgreSQL pass the database lives on that server's disk, not under DATA_DIR.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, waitFor, type TestServer } from "./harness";
import { linear } from "./graphs";
import { smallDisk } from "./small-disk";

const root = mkdtempSync(join(tmpdir(), "vektor-dbfull-"));
// PGlite's initial files take ~40 MB; the rest is what the test fills.
const disk = smallDisk(join(root, "disk"), 160);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const skipReason = onPostgres ? "the database is a PostgreSQL server, not under DATA_DIR" : disk.skipReason;
if (skipReason) console.warn(`[db-disk-full] skipped: ${skipReason}`);

let srv: TestServer;
beforeAll(async () => {
  if (!skipReason) srv = await startTestServer({ DATA_DIR: join(disk.path, "data") });
});
afterAll(async () => {
  if (!skipReason) await srv.close().catch(() => {});
  disk.unmount();
  rmSync(root, { recursive: true, force: true });
});

const GRAPH = linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.zip"]);

type Client = Awaited<ReturnType<TestServer["user"]>>;

/** A workflow whose graph carries 60 KB that does not compress, so each needs new pages soon. */
function createWorkflow(c: Client, name: string): Promise<Response> {
  const note = Array.from({ length: 6000 }, () => Math.random().toString(36).slice(2, 12)).join("");
  const g = JSON.parse(GRAPH) as { nodes: Record<string, unknown>[] };
  g.nodes[0].note = note; // nodes' other fields are kept and ignored
  const graphJson = JSON.stringify(g);
  return fetch(`${srv.url}/api/workflows`, { method: "POST", headers: c.t.headers({ "content-type": "application/json" }), body: JSON.stringify({ name, graphJson }) });
}

describe.skipIf(skipReason !== null)("the embedded database on a full disk", () => {
  test("a write is 503 STORAGE_FULL and changes nothing; health says which check failed; freed space heals it", async () => {
    const c = await srv.user();
    const kept = await c.workflows.create({ name: "before the disk filled", graphJson: GRAPH });
    const filler = disk.fill();
    const written: string[] = [];
    try {
      // A row that fits a page the table already has needs no new block; writes go on until one does.
      let refused: Response | null = null;
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await createWorkflow(c, `while full ${i}`);
        if (res.ok) written.push(`while full ${i}`);
        else refused = res;
      }
      expect(refused?.status).toBe(503);
      expect(refused!.headers.get("retry-after")).toBeTruthy();
      const body = (await refused!.json()) as { ok: boolean; error: { code: string; message: string } };
      expect(body).toMatchObject({ ok: false, error: { code: "STORAGE_FULL" } });
      expect(body.error.message).toContain("database");
      const health = await fetch(`${srv.url}/api/health`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { error: { message: string } }).error.message).toContain("check failed");
      // Reads need no room: the caller still sees what was there, and not the refused one.
      expect((await c.workflows.list({ limit: 100 })).items.map((w) => w.name).sort()).toEqual(["before the disk filled", ...written].sort());
    } finally {
      rmSync(filler);
    }
    await waitFor("health to recover", async () => (await fetch(`${srv.url}/api/health`)).status, (s) => s === 200, 15_000);
    expect((await createWorkflow(c, "after space was freed")).status).toBe(200);
    const names = (await c.workflows.list({ limit: 100 })).items.map((w) => w.name).sort();
    expect(names).toEqual(["after space was freed", "before the disk filled", ...written].sort());
    expect((await c.workflows.get(kept.id)).name).toBe("before the disk filled");
    // A new account can be made again.
    await srv.user();
  });
});
