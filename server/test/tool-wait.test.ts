/**
 * How POST /api/tools/{slug} learns of its job's end (issue 24): the process that ran the job
 * hands the request the recorded row and outputs, so the answer is exactly what GET
 * /api/jobs/{jobId} reads back, outputs in the tool's order even though they are stored in
 * parallel; a failure is handed over the same way; a repeated Idempotency-Key answers the
 * recorded job; with JOB_TRACE=1 the answer carries its steps in Server-Timing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./harness";
import { makePdf, noise } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ TOOL_WORKERS: "1", JOB_TRACE: "1" });
});
afterAll(() => srv.close());

type Job = { jobId: string; status: string; errorCode: string | null; outputs: { fileId: string; filename: string; mime: string; size: number }[] };

async function post(c: Awaited<ReturnType<TestServer["user"]>>, slug: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await c.t.fetch(`/api/tools/${slug}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: Job };
  return { status: res.status, job: json.data, timing: res.headers.get("server-timing") };
}

describe("POST /api/tools/{slug} answers the job's recorded end", () => {
  test("a split into 12 pages: the answer equals GET /api/jobs/{jobId}, outputs in page order, and downloads match their sizes", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([await makePdf(12)]), { filename: "doc.pdf", mime: "application/pdf" });
    const { status, job } = await post(c, "pdf.split", { fileIds: [f.fileId] });
    expect(status).toBe(200);
    expect(job.status).toBe("succeeded");
    expect(job.outputs.map((o) => o.filename)).toEqual(Array.from({ length: 12 }, (_, i) => `doc-p${i + 1}.pdf`));
    expect(await c.t.call<Job>("GET", `/api/jobs/${job.jobId}`)).toEqual(job);
    for (const o of [job.outputs[0], job.outputs[11]]) expect((await (await c.files.download(o.fileId)).arrayBuffer()).byteLength).toBe(o.size);
  });

  test("a failed job is answered with its errorCode, as GET reads it back", async () => {
    const c = await srv.user();
    const junk = await c.files.upload(new Blob([noise(3000)]), { filename: "junk.bin", mime: "application/octet-stream" });
    const { status, job } = await post(c, "pdf.rotate", { fileIds: [junk.fileId] });
    expect(status).toBe(200);
    expect(job).toMatchObject({ status: "failed", errorCode: "INPUT_INVALID", outputs: [] });
    expect(await c.t.call<Job>("GET", `/api/jobs/${job.jobId}`)).toEqual(job);
  });

  test("a repeated Idempotency-Key answers the recorded job at once, the same as the first answer", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([await makePdf(2)]), { filename: "two.pdf", mime: "application/pdf" });
    const key = `k-${crypto.randomUUID()}`;
    const first = await post(c, "pdf.rotate", { fileIds: [f.fileId] }, { "idempotency-key": key });
    const again = await post(c, "pdf.rotate", { fileIds: [f.fileId] }, { "idempotency-key": key });
    expect(first.job.status).toBe("succeeded");
    expect(again.job).toEqual(first.job);
    expect((await c.files.list()).items).toHaveLength(2); // the input and one output: it ran once
  });

  test("JOB_TRACE=1: the answer's Server-Timing lists the job's steps in path order", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([await makePdf(1)]), { filename: "one.pdf", mime: "application/pdf" });
    const { timing } = await post(c, "pdf.rotate", { fileIds: [f.fileId] });
    const parts = (timing ?? "").split(", ").map((p) => ({ step: p.split(";")[0], ms: Number(p.split("dur=")[1]) }));
    // The file was confirmed here, so the run began while the job was inserted: the part of the
    // tool's own run hidden under earlier steps, if any, comes last, as "overlap".
    const path = parts.filter((p) => p.step !== "overlap");
    expect(path.map((p) => p.step)).toEqual(["auth", "insert", "claim", "inputs", "transfer", "tool", "outputs", "commit", "answer"]);
    for (const p of parts) expect(p.ms).toBeGreaterThanOrEqual(0);
    const overlap = parts.find((p) => p.step === "overlap");
    if (overlap) expect(parts.at(-1)).toBe(overlap);
    expect(overlap?.ms ?? 0).toBeLessThanOrEqual(path[5].ms);
  });
});
