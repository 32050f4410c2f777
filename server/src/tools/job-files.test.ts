/**
 * Job folders a stopped process left: swept by age (a day untouched), at start and hourly, and
 * only job folders; a fresh one may be another process's running job.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../../test/harness";
import { LEFTOVER_JOB_FOLDER_MS, sweepJobFolders } from "./job-files";

const DAY_AND_A_BIT = LEFTOVER_JOB_FOLDER_MS + 60_000;

/** A job folder as JobFiles makes it, with an input, last touched `ageMs` ago. */
function jobFolder(root: string, name: string, ageMs: number): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "in", "0"), { recursive: true });
  mkdirSync(join(dir, "out"));
  writeFileSync(join(dir, "in", "0", "site.las"), new Uint8Array(1024));
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(dir, at, at);
  return dir;
}

const roots: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function root(): string {
  const dir = mkdtempSync(join(tmpdir(), "vektor-job-folders-"));
  roots.push(dir);
  return dir;
}

describe("leftover job folders", () => {
  test("a job folder untouched for a day goes; a fresh one, and what is not a job folder, stay", async () => {
    const scratch = root();
    const old = jobFolder(scratch, "job-job_old-Ab12Cd34", DAY_AND_A_BIT);
    const fresh = jobFolder(scratch, "job-job_new-Ef56Gh78", 60_000);
    const other = jobFolder(scratch, "not-a-job", DAY_AND_A_BIT);
    writeFileSync(join(scratch, "job-a-file"), "x");
    utimesSync(join(scratch, "job-a-file"), 0, 0);
    expect(await sweepJobFolders(scratch)).toBe(1);
    expect([old, fresh, other, join(scratch, "job-a-file")].map(existsSync)).toEqual([false, true, true, true]);
    expect(await sweepJobFolders(join(scratch, "missing"))).toBe(0);
  });

  test("a server sweeps its scratch folder as it starts", async () => {
    const dataDir = root();
    const old = jobFolder(join(dataDir, "tmp"), "job-job_crashed-Ij90Kl12", DAY_AND_A_BIT);
    const fresh = jobFolder(join(dataDir, "tmp"), "job-job_running-Mn34Op56", 1000);
    servers.push(await startTestServer({ DATA_DIR: dataDir }));
    for (const deadline = Date.now() + 10_000; existsSync(old) && Date.now() < deadline; ) await Bun.sleep(50);
    expect([existsSync(old), existsSync(fresh)]).toEqual([false, true]);
  });
});
