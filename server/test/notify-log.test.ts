/**
 * What the server logs for a completion webhook that fails once (issue 18, item 8): the real
 * `main.ts` process at LOG_LEVEL=info, its JSON log read from stdout, a receiver on loopback
 * (its exact port let through the address guard by net.allow_hosts) answering 500 and then 200.
 * The failed attempt is one line saying it will be retried, with the run, the delivery, the
 * attempt and the reason, and no stack trace anywhere.
 */
import { VektorClient } from "@vektor/shared/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN_EMAIL, freePort, PASSWORD, spawnedDatabase, waitFor } from "./harness";
import { linear } from "./graphs";
import { makePdf } from "./fixtures";

const dataDir = mkdtempSync(join(tmpdir(), "vektor-notify-log-"));
let proc: ReturnType<typeof Bun.spawn> | null = null;
let dropDb: (() => Promise<void>) | null = null;
let base: string;
let logs = "";
const requests: { path: string; delivery: string | null }[] = [];
/** 500 to the first request, 200 to the rest. */
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    await req.text();
    requests.push({ path: new URL(req.url).pathname, delivery: req.headers.get("x-service-delivery") });
    return requests.length === 1 ? new Response("down", { status: 500 }) : new Response("ok");
  },
});

async function readLogs(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) logs += decoder.decode(chunk, { stream: true });
}

const logLines = () =>
  logs
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // A fast first back-off, so the second attempt comes soon after the first.
  const env: Record<string, string> = { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info", TOOL_WORKERS: "1", JOB_POLL_MS: "100", NOTIFY_RETRY_BASE_MS: "200", ADMIN_EMAILS: ADMIN_EMAIL };
  dropDb = await spawnedDatabase(env);
  proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "src", "main.ts")], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  void readLogs(proc.stdout as ReadableStream<Uint8Array>);
  // The deadline leaves a slow, busy machine room.
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; ) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false)) return;
    if (proc.exitCode !== null) break;
    await Bun.sleep(100);
  }
  throw new Error("server did not start");
}, 180_000);

afterAll(async () => {
  proc?.kill("SIGKILL");
  await proc?.exited;
  receiver.stop(true);
  await dropDb?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a completion webhook attempt that fails", () => {
  test("is logged once, as a retry with run, delivery, attempt and reason, and without a stack trace", async () => {
    const admin = new VektorClient({ baseUrl: base });
    await admin.auth.signUp({ name: "admin", email: ADMIN_EMAIL, password: PASSWORD });
    await admin.admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${receiver.port}`] });
    const c = new VektorClient({ baseUrl: base });
    await c.auth.signUp({ name: "logs", email: "notify-log@example.test", password: PASSWORD });
    const w = await c.workflows.create({
      name: "logged",
      graphJson: linear(["in", "source.upload"], ["out", "sink.download"]),
      paramsJson: JSON.stringify({ notifyUrl: `http://127.0.0.1:${receiver.port}/hook` }),
    });
    const fileId = (await c.files.upload(new Blob([await makePdf(1)]), { filename: "a.pdf", mime: "application/pdf" })).fileId;
    const { runId } = await c.workflows.run(w.id, [fileId]);

    const detail = await waitFor("the delivery to succeed", () => c.workflows.runDetail(runId), (d) => d.deliveries.some((x) => x.channel === "webhook" && x.status === "succeeded"), 90_000);
    const delivery = detail.deliveries.find((x) => x.channel === "webhook")!;
    expect(delivery.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ["http_error", 500],
      ["ok", 200],
    ]);
    expect(requests.map((r) => r.delivery)).toEqual([delivery.id, delivery.id]);

    // A line reaches the pipe a moment after what it reports.
    const mine = await waitFor("both attempts' log lines", async () => logLines().filter((l) => l.deliveryId === delivery.id), (ls) => ls.length >= 2, 30_000);
    expect(mine.map((l) => [l.msg, l.attempt])).toEqual([
      ["job attempt failed, will retry", 1],
      ["completion webhook attempt", 2],
    ]);
    const failed = mine[0];
    expect(failed).toMatchObject({ level: 30, kind: "notify.webhook", runId, deliveryId: delivery.id, attempt: 1, reason: "the receiver answered 500", outcome: "http_error", statusCode: 500 });
    expect(failed.err).toBeUndefined();
    // The failed attempt is that one line: nothing else names its job.
    expect(logLines().filter((l) => l.jobId === failed.jobId)).toHaveLength(1);
    expect(logs).not.toContain('"stack"');
    expect(logs).not.toContain("    at ");
  }, 150_000);
});
