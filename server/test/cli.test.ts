/**
 * The `vektor` CLI as a user runs it: a child process under Node (not Bun), built the way
 * `bun install` builds it, against a started server. Login (and a wrong password), upload, run
 * (and a failing job's exit code 1), batch with progress to completion and its ZIP, download,
 * tokens, workflows, jobs and cancel, mcp-config, and the error cases: an unreachable server, a missing file, an
 * unknown tool and a bad --param each give one line and a non-zero exit code.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import yauzl from "yauzl";
import { freePort, PASSWORD, startTestServer, type TestServer } from "./harness";
import { makePdf, noise, sha256Hex } from "./fixtures";

const root = join(import.meta.dir, "..", "..");
const bin = join(root, "client", "bin", "vektor.mjs");
const work = mkdtempSync(join(tmpdir(), "vektor-cli-"));
const configFile = join(work, "config", "vektor.json");

let srv: TestServer;
let email: string;
beforeAll(async () => {
  // The same build `bun install` runs (client's prepare), so the test runs what users run.
  const build = spawnSync("node", [join(root, "client", "scripts", "build.mjs")], { env: { ...process.env, BUN_BIN: process.execPath }, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  srv = await startTestServer();
  email = (await srv.user()).email;
  for (let i = 0; i < 3; i++) writeFileSync(join(work, `doc${i}.pdf`), await makePdf(2, `cli ${i}`));
  writeFileSync(join(work, "noise.bin"), noise(3000));
});
afterAll(async () => {
  await srv.close();
  rmSync(work, { recursive: true, force: true });
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node vektor.mjs ...args` without blocking this process (it hosts the server). */
async function vektor(args: string[], env: Record<string, string> = {}): Promise<Result> {
  const child = Bun.spawn(["node", bin, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "", HOME: work, VEKTOR_CONFIG: configFile, VEKTOR_URL: srv.url, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/**
 * A refusal: the exit code, and one error line (`error: ...`, the last on stderr, after any
 * progress notes such as "uploaded x.pdf"), with no stack trace.
 */
function expectOneLineError(r: Result, code: number, pattern: RegExp) {
  expect(r.code).toBe(code);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines.filter((l) => l.startsWith("error"))).toEqual([lines.at(-1)!]);
  expect(lines.at(-1)).toMatch(/^error: \S/);
  expect(lines.at(-1)).toMatch(pattern);
  expect(r.stderr).not.toContain("    at ");
}

/** A refusal before anything was sent: stderr is exactly the one error line. */
function expectOnlyError(r: Result, code: number, pattern: RegExp) {
  expectOneLineError(r, code, pattern);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
}

const json = <T>(r: Result): T => {
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
};

function zipNames(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on("entry", (e: yauzl.Entry) => (names.push(e.fileName), zip.readEntry()));
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

describe("vektor under Node", () => {
  test("it runs on Node 20 or later, and --help works on every command", async () => {
    const major = Number(/^v(\d+)/.exec(spawnSync("node", ["-v"], { encoding: "utf8" }).stdout)?.[1]);
    expect(major).toBeGreaterThanOrEqual(20);
    const commands = ["login", "logout", "whoami", "token", "token create", "token list", "token revoke", "upload", "files", "run", "batch", "workflow", "workflow list", "workflow run", "workflow runs", "workflow approve", "approvals", "download", "jobs", "cancel", "mcp-config"];
    const top = await vektor(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("Usage: vektor");
    for (const c of commands) {
      const r = await vektor([...c.split(" "), "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: vektor ${c}`);
    }
  });

  test("login: a wrong password is one line and exit 1, nothing saved; the right one saves a 0600 file", async () => {
    const wrong = await vektor(["login", "--email", email, "--password", `${PASSWORD}-not`]);
    expectOnlyError(wrong, 1, /UNAUTHORIZED/);
    expect(existsSync(configFile)).toBe(false);
    const noPassword = await vektor(["login", "--email", email]);
    expectOnlyError(noPassword, 2, /VEKTOR_PASSWORD/);

    const ok = await vektor(["login", "--email", email], { VEKTOR_PASSWORD: PASSWORD });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(email);
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toMatchObject({ baseUrl: srv.url, email });
    const me = json<{ email: string; credits: number }>(await vektor(["--json", "whoami"]));
    expect(me.email).toBe(email);
  });

  test("upload, files and download", async () => {
    const up = json<{ fileId: string; filename: string; checksum: string }[]>(await vektor(["upload", "doc0.pdf", "--json"]));
    expect(up).toHaveLength(1);
    expect(up[0]).toMatchObject({ filename: "doc0.pdf", checksum: sha256Hex(readFileSync(join(work, "doc0.pdf"))) });
    const list = await vektor(["files"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(up[0].fileId);
    const dir = mkdtempSync(join(work, "down-"));
    const down = await vektor(["download", up[0].fileId, "-o", dir]);
    expect(down.code).toBe(0);
    expect(readFileSync(join(dir, "doc0.pdf"))).toEqual(readFileSync(join(work, "doc0.pdf")));
  });

  test("run: a tool with --param saves its outputs; a failing job exits 1 with its error code", async () => {
    const out = join(work, "rotated");
    const r = await vektor(["run", "pdf.rotate", "doc1.pdf", "--param", "degrees=90", "-o", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("succeeded");
    const saved = readdirSync(out);
    expect(saved).toHaveLength(1);
    expect(readFileSync(join(out, saved[0])).subarray(0, 5).toString()).toBe("%PDF-");

    const failed = await vektor(["run", "pdf.rotate", "noise.bin"]);
    expect(failed.stdout).toContain("failed");
    expectOneLineError(failed, 1, /^error: INPUT_INVALID: /);
  });

  test("batch: progress from the event stream to completion, then the ZIP", async () => {
    const r = await vektor(["batch", "pdf.compress", "doc0.pdf", "doc1.pdf", "doc2.pdf", "--zip", "out.zip"]);
    expect(r.code).toBe(0);
    const progress = r.stderr.split("\n").filter((l) => l.startsWith("progress: "));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe("progress: 3/3 (3 done, 0 failed) completed");
    expect(r.stdout).toMatch(/: completed, 3 of 3 done, 0 failed/);
    expect((await zipNames(join(work, "out.zip"))).sort()).toEqual(["doc0-compressed.pdf", "doc1-compressed.pdf", "doc2-compressed.pdf"]);

    const partly = await vektor(["--json", "batch", "pdf.compress", "doc0.pdf", "noise.bin"]);
    expect(partly.code).toBe(1);
    expect(JSON.parse(partly.stdout).progress).toMatchObject({ total: 2, done: 1, failed: 1, status: "completed" });
  });

  test("tokens, mcp-config and a token login", async () => {
    const created = json<{ id: string; token: string; scopes: string[] }>(await vektor(["--json", "token", "create", "ci", "--scope", "api", "mcp:write"]));
    expect(created.token).toMatch(/^vk_/);
    expect(created.scopes).toEqual(["api", "mcp:write"]);
    expect((await vektor(["token", "list"])).stdout).toContain(created.id);
    const snippet = json<{ mcpServers: { vektor: { type: string; url: string; headers: { Authorization: string } } } }>(await vektor(["mcp-config", "--token", created.token]));
    expect(snippet.mcpServers.vektor).toEqual({ type: "http", url: `${srv.url}/api/mcp`, headers: { Authorization: `Bearer ${created.token}` } });

    const other = join(work, "token-config.json");
    const withToken = await vektor(["login", "--token", created.token], { VEKTOR_CONFIG: other });
    expect(withToken.code).toBe(0);
    expect(json<{ email: string }>(await vektor(["--json", "whoami"], { VEKTOR_CONFIG: other })).email).toBe(email);
    expect((await vektor(["--json", "mcp-config"], { VEKTOR_CONFIG: other })).stdout).toContain(created.token);
    expect((await vektor(["token", "revoke", created.id])).code).toBe(0);
    expectOneLineError(await vektor(["whoami"], { VEKTOR_CONFIG: other }), 1, /UNAUTHORIZED/);
  });

  test("workflow list and run --wait", async () => {
    const c = srv.anon();
    await c.auth.signIn({ email, password: PASSWORD });
    const graphJson = JSON.stringify({
      nodes: [
        { id: "in", type: "source.upload", data: {} },
        { id: "zip", type: "op.pdf.compress", data: {} },
        { id: "out", type: "sink.download", data: {} },
      ],
      edges: [{ source: "in", target: "zip" }, { source: "zip", target: "out" }],
    });
    const w = await c.workflows.create({ name: "compress", graphJson });
    expect((await vektor(["workflow", "list"])).stdout).toContain(w.id);
    const run = await vektor(["--json", "workflow", "run", w.id, "doc2.pdf", "--wait"]);
    const detail = json<{ run: { status: string; outputFileIds: string[] } }>(run);
    expect(detail.run.status).toBe("succeeded");
    expect(detail.run.outputFileIds).toHaveLength(1);
    // Without --json the steps show live on stderr, one line per change, then the run's end.
    const live = await vektor(["workflow", "run", w.id, "doc1.pdf", "--wait"]);
    expect(live.code).toBe(0);
    expect(live.stderr).toMatch(/^step .+ \(zip\): succeeded$/m);
    expect(live.stderr).toMatch(/^step Download \(out\): succeeded$/m);
    expect(live.stderr.trimEnd().split("\n").at(-1)).toMatch(/^run run_\S+: succeeded$/);
    expect(live.stdout).toMatch(/: succeeded\n/);
    // A run that fails: the failing step's line, and exit 1.
    writeFileSync(join(work, "broken.pdf"), "%PDF-1.7\nnot really a pdf\n");
    const failed = await vektor(["workflow", "run", w.id, "broken.pdf", "--wait"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^step .+ \(zip\): failed \(\S+: .+\)$/m);
    expect(failed.stderr).toMatch(/^run run_\S+: failed$/m);
    const runs = json<{ items: { runId: string; status: string; workflowName: string }[] }>(await vektor(["--json", "workflow", "runs", "--status", "failed"]));
    expect(runs.items.map((r) => [r.status, r.workflowName])).toEqual([["failed", "compress"]]);
    expect((await vektor(["workflow", "runs", "--workflow", w.id])).stdout.trimEnd().split("\n")).toHaveLength(3);
    expectOnlyError(await vektor(["workflow", "runs", "--status", "done"]), 2, /--status must be one of/);
    expect((await vektor(["approvals"])).stdout).toContain("no approvals");
    expectOneLineError(await vektor(["workflow", "approve", (await c.workflows.run(w.id, [])).runId]), 1, /INVALID_STATE|NOT_FOUND/);
  });

  test("jobs pages the jobs newest first; cancel stops one, and refuses an ended or unknown one", async () => {
    const c = srv.anon();
    await c.auth.signIn({ email, password: PASSWORD });
    const first = json<{ items: { jobId: string; createdAt: string }[]; nextCursor: string | null }>(await vektor(["--json", "jobs", "--limit", "2"]));
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toBeString();
    const second = json<{ items: { jobId: string; createdAt: string }[] }>(await vektor(["--json", "jobs", "--limit", "2", "--cursor", first.nextCursor!]));
    expect(second.items.length).toBeGreaterThan(0);
    expect(second.items[0].createdAt <= first.items[1].createdAt).toBe(true);
    expect(second.items.map((j) => j.jobId)).not.toContain(first.items[1].jobId);
    const text = await vektor(["jobs", "--limit", "2"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(first.items[0].jobId);
    expect(text.stderr).toContain(`vektor jobs --cursor ${first.nextCursor}`);

    const long = await c.files.upload(new Blob([await makePdf(40, "long")]), { filename: "long.pdf", mime: "application/pdf" });
    const job = await c.jobs.create({ type: "pdf.render-png", fileIds: [long.fileId], params: { dpi: 300 } });
    const stopped = json<{ jobId: string; status: string; errorCode: string }>(await vektor(["--json", "cancel", job.jobId, "--wait"]));
    expect(stopped).toMatchObject({ jobId: job.jobId, status: "cancelled", errorCode: "CANCELLED" });
    expect((await vektor(["jobs"])).stdout).toContain(`${job.jobId}  pdf.render-png  cancelled`);
    expectOneLineError(await vektor(["cancel", job.jobId]), 1, /^error: INVALID_STATE: The job has already ended \(cancelled\)$/);
    expectOneLineError(await vektor(["cancel", "job_nope"]), 1, /^error: NOT_FOUND: /);
    expectOnlyError(await vektor(["jobs", "--limit", "0"]), 2, /--limit must be an integer from 1 to 200/);
    expectOnlyError(await vektor(["cancel"]), 2, /missing required argument/);
  });

  test("error cases: each is one line and a non-zero exit code", async () => {
    expectOnlyError(await vektor(["run", "pdf.compress", "missing.pdf"]), 2, /no such file: missing\.pdf/);
    expectOneLineError(await vektor(["run", "pdf.teleport", "doc0.pdf"]), 1, /^error: NOT_FOUND: /);
    expectOnlyError(await vektor(["run", "pdf.rotate", "doc0.pdf", "--param", "degrees"]), 2, /--param needs key=value/);
    expectOneLineError(await vektor(["run", "pdf.rotate", "doc0.pdf", "--param", "degrees=45"]), 1, /^error: VALIDATION_ERROR: .*degrees/);
    expectOnlyError(await vektor(["frobnicate"]), 2, /unknown command/);
    expectOnlyError(await vektor(["run", "pdf.rotate"]), 2, /missing required argument/);
    const closed = `http://127.0.0.1:${await freePort()}`;
    expectOnlyError(await vektor(["--base-url", closed, "whoami"]), 1, /^error: NETWORK_ERROR: cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expectOnlyError(await vektor(["whoami"], { VEKTOR_URL: "ftp://example" }), 2, /http\(s\)/);
  });

  test("logout forgets the credentials", async () => {
    expect((await vektor(["logout"])).code).toBe(0);
    expect(existsSync(configFile)).toBe(false);
    expectOneLineError(await vektor(["whoami"]), 1, /UNAUTHORIZED/);
  });
});
