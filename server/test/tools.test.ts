/**
 * Tools on the server: catalog endpoints, POST /api/tools/{slug} (waits for the job), jobs,
 * createJob at upload, Idempotency-Key, bad params before any work, failed jobs with an
 * errorCode, and the worker pool surviving bad input. Outputs are read back by qpdf/pdfinfo.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { getTool } from "@vektor/wasm-tools";
import { toneWav } from "@vektor/wasm-tools/testing/wav";
import { fixture, makePdf, noise } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ TOOL_WORKERS: "2" });
});
afterAll(() => srv.close());

type Job = { jobId: string; status: string; errorCode: string | null; error: string | null; outputs: { fileId: string; filename: string; mime: string; size: number }[]; fileIds: string[] };
const tmp = mkdtempSync(join(tmpdir(), "vektor-tools-"));

function pdfinfo(bytes: Uint8Array): Record<string, string> {
  const path = join(tmp, `${crypto.randomUUID()}.pdf`);
  writeFileSync(path, bytes);
  const check = spawnSync("qpdf", ["--check", path], { encoding: "utf8" });
  expect(check.status).toBe(0);
  const out = spawnSync("pdfinfo", [path], { encoding: "utf8" }).stdout;
  return Object.fromEntries(out.split("\n").filter((l) => l.includes(":")).map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]));
}

async function uploadPdf(c: Awaited<ReturnType<TestServer["user"]>>, pages: number, name = "in.pdf") {
  return c.files.upload(new Blob([await makePdf(pages)]), { filename: name, mime: "application/pdf" });
}

describe("catalog", () => {
  test("tools-index and lookup are public and list the registry", async () => {
    const index = await srv.anon().t.call<{ slug: string; accepts: string[] }[]>("GET", "/api/config/tools-index");
    expect(index.map((t) => t.slug)).toContain("pdf.compress");
    expect(index.find((t) => t.slug === "pdf.merge")?.accepts).toEqual(["pdf"]);
    const found = await srv.anon().t.call<{ slug: string; params: { properties: Record<string, unknown> }; memoryPerInputByte?: number }[]>("GET", "/api/tools/lookup?slugs=pdf.compress,nope.nothing");
    expect(found.map((t) => t.slug)).toEqual(["pdf.compress"]);
    expect(Object.keys(found[0].params.properties)).toContain("level");
    // The measured memory per input byte from its manifest: what a browser checks its memory against.
    expect(found[0].memoryPerInputByte).toBeGreaterThan(0);
    expect(found[0].memoryPerInputByte).toBe(getTool("pdf.compress")!.manifest.limits!.memoryPerInputByte!);
  });

  test("lookup answers every known slug asked, leaves unknown ones out, and refuses malformed values", async () => {
    const lookup = (slugs: string) => srv.anon().t.call<{ slug: string }[]>("GET", `/api/tools/lookup?slugs=${encodeURIComponent(slugs)}`);
    const all = (await srv.anon().t.call<{ slug: string }[]>("GET", "/api/config/tools-index")).map((t) => t.slug);
    expect((await lookup(all.join(","))).map((t) => t.slug)).toEqual(all);
    const hyphenated = all.find((s) => s.includes("-"))!;
    expect((await lookup(`${hyphenated},cad.no-such-tool`)).map((t) => t.slug)).toEqual([hyphenated]);
    for (const bad of ["pdf..x,,", "PDF.compress", "pdf.compress;drop", ""]) {
      const err = await expectApiError(() => lookup(bad), "VALIDATION_ERROR", 400);
      expect(err.message).toContain("slugs must be comma-separated tool slugs");
    }
    const tooLong = await expectApiError(() => lookup(`${"pdf.compress,".repeat(200)}pdf.merge`), "VALIDATION_ERROR", 400);
    expect(tooLong.message).toContain("slugs");
  });

  test("the workflow catalog lists the same tools as op.<slug>", async () => {
    const c = await srv.user();
    const catalog = await c.t.call<{ type: string; slug: string }[]>("GET", "/api/workflows/catalog");
    const index = await c.t.call<{ slug: string }[]>("GET", "/api/config/tools-index");
    expect(catalog.map((o) => o.type).filter((t) => t.startsWith("op.") && t !== "op.workflow")).toEqual(index.map((t) => `op.${t.slug}`));
    await expectApiError(() => srv.anon().t.call("GET", "/api/workflows/catalog"), "UNAUTHORIZED", 401);
  });
});

describe("POST /api/tools/{slug}", () => {
  test("runs the tool and answers the finished job; outputs download and pass qpdf", async () => {
    const c = await srv.user();
    const a = await uploadPdf(c, 2, "a.pdf");
    const b = await uploadPdf(c, 3, "b.pdf");
    const job = await c.t.call<Job>("POST", "/api/tools/pdf.merge", { fileIds: [a.fileId, b.fileId] });
    expect(job).toMatchObject({ status: "succeeded", errorCode: null, fileIds: [a.fileId, b.fileId] });
    expect(job.outputs).toHaveLength(1);
    const out = job.outputs[0];
    expect(out.mime).toBe("application/pdf");
    const bytes = new Uint8Array(await (await c.files.download(out.fileId)).arrayBuffer());
    expect(bytes.length).toBe(out.size);
    expect(pdfinfo(bytes).Pages).toBe("5");
    expect((await c.files.get(out.fileId)).jobId).toBe(job.jobId);
    expect((await c.files.get(a.fileId)).outFileId).toBe(out.fileId);
    expect((await c.t.call<Job>("GET", `/api/jobs/${job.jobId}`)).status).toBe("succeeded");
    expect((await c.t.call<Job>("GET", `/api/files/jobs-latest?fileId=${b.fileId}`)).jobId).toBe(job.jobId);
  });

  test("params outside the schema are 400 before any job exists", async () => {
    const c = await srv.user();
    const f = await uploadPdf(c, 1);
    const err = await expectApiError(() => c.t.call("POST", "/api/tools/pdf.render-png", { fileIds: [f.fileId], params: { dpi: 5000 } }), "VALIDATION_ERROR", 400);
    expect(err.message).toContain("dpi");
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId], params: { level: "max" } }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("GET", `/api/files/jobs-latest?fileId=${f.fileId}`), "NOT_FOUND", 404);
  });

  test("unknown tools, other users' files, unconfirmed files and wrong input counts are refused", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const f = await uploadPdf(c, 1);
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.teleport", { fileIds: [f.fileId] }), "NOT_FOUND", 404);
    await expectApiError(() => other.t.call("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId] }), "NOT_FOUND", 404);
    const pending = await c.files.presignUpload<{ fileId: string }>({ filename: "p.pdf", mime: "application/pdf", size: 10 });
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.compress", { fileIds: [pending.fileId] }), "INVALID_STATE", 409);
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.merge", { fileIds: [f.fileId] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.merge", { fileIds: [f.fileId, f.fileId] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.compress", { fileIds: [] }), "VALIDATION_ERROR", 400);
  });

  test("a file of the wrong kind gives a failed job with an errorCode; the pool keeps serving", async () => {
    const c = await srv.user();
    const las = await c.files.upload(fixture("pointcloud/Haystack_Rock.las"), { filename: "rock.las", mime: "application/vnd.las" });
    const job = await c.t.call<Job>("POST", "/api/tools/pdf.compress", { fileIds: [las.fileId] });
    expect(job.status).toBe("failed");
    expect(job.errorCode).toBe("INPUT_INVALID");
    expect(job.error).toBeTruthy();
    const generic = await c.files.upload(new Blob([noise(5000)]), { filename: "x.bin", mime: "application/octet-stream" });
    const job2 = await c.t.call<Job>("POST", "/api/tools/pdf.rotate", { fileIds: [generic.fileId] });
    expect(job2).toMatchObject({ status: "failed", errorCode: "INPUT_INVALID" });
    const ok = await c.t.call<Job>("POST", "/api/tools/pdf.rotate", { fileIds: [(await uploadPdf(c, 1)).fileId], params: { degrees: 180 } });
    expect(ok.status).toBe("succeeded");
    expect(pdfinfo(new Uint8Array(await (await c.files.download(ok.outputs[0].fileId)).arrayBuffer()))["Page rot"]).toBe("180");
  });

  test("point cloud: LAZ -> LAS on the server is byte-identical to the reference", async () => {
    const c = await srv.user();
    const laz = await c.files.upload(fixture("pointcloud/autzen_trim.laz"), { filename: "autzen.laz", mime: "application/vnd.laszip" });
    const job = await c.t.call<Job>("POST", "/api/tools/pointcloud.laz-to-las", { fileIds: [laz.fileId] });
    expect(job.status).toBe("succeeded");
    const out = new Uint8Array(await (await c.files.download(job.outputs[0].fileId)).arrayBuffer());
    const ref = await fixture("pointcloud/autzen_trim.las").bytes();
    expect(out.length).toBe(ref.length);
    expect(Bun.hash(out)).toBe(Bun.hash(ref));
  });

  test("Idempotency-Key: same body returns the same job without running again; another body is 409", async () => {
    const c = await srv.user();
    const f = await uploadPdf(c, 2);
    const key = `k-${crypto.randomUUID()}`;
    const first = await c.t.call<Job>("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId], params: { level: 3 } }, { "idempotency-key": key });
    const again = await c.t.call<Job>("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId], params: { level: 3 } }, { "idempotency-key": key });
    expect(again.jobId).toBe(first.jobId);
    expect(again.outputs).toEqual(first.outputs);
    await expectApiError(() => c.t.call("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId], params: { level: 4 } }, { "idempotency-key": key }), "IDEMPOTENCY_KEY_REUSED", 409);
    const other = await srv.user();
    const g = await uploadPdf(other, 1);
    const theirs = await other.t.call<Job>("POST", "/api/tools/pdf.compress", { fileIds: [g.fileId], params: { level: 3 } }, { "idempotency-key": key });
    expect(theirs.jobId).not.toBe(first.jobId);
  });

  test("processing.cloud_enabled off -> 403 FEATURE_DISABLED", async () => {
    const a = await srv.admin();
    const c = await srv.user();
    const f = await uploadPdf(c, 1);
    await a.admin.setConfig("platform_configs", { "processing.cloud_enabled": false });
    try {
      await expectApiError(() => c.t.call("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId] }), "FEATURE_DISABLED", 403);
    } finally {
      await a.admin.setConfig("platform_configs", { "processing.cloud_enabled": true });
    }
  });
});

describe("jobs", () => {
  test("POST /api/files creates a queued job that completes; another user's job id is 404", async () => {
    const c = await srv.user();
    const f = await uploadPdf(c, 3);
    const created = await c.t.call<Job>("POST", "/api/files", { type: "pdf.split", fileIds: [f.fileId] });
    expect(["queued", "running", "succeeded"]).toContain(created.status);
    const done = await srv.services.jobs.waitFor((await c.account()).id, created.jobId, 30_000);
    expect(done.status).toBe("succeeded");
    expect(done.outputs).toHaveLength(3);
    const other = await srv.user();
    await expectApiError(() => other.t.call("GET", `/api/jobs/${created.jobId}`), "NOT_FOUND", 404);
    await expectApiError(() => other.t.call("GET", `/api/files/jobs-latest?fileId=${f.fileId}`), "NOT_FOUND", 404);
  });

  test("createJob at presign-upload starts the job at confirm and returns its jobId", async () => {
    const c = await srv.user();
    const bytes = await makePdf(2);
    const f = await c.files.upload(new Blob([bytes]), { filename: "auto.pdf", mime: "application/pdf", createJob: true, jobType: "pdf.extract-text" });
    expect(f.jobId).toMatch(/^job_/);
    const done = await srv.services.jobs.waitFor((await c.account()).id, f.jobId!, 30_000);
    expect(done.status).toBe("succeeded");
    const text = await (await c.files.download(done.outputs[0].fileId)).text();
    expect(text).toContain("page 2");
    await expectApiError(() => c.files.presignUpload({ filename: "a.pdf", mime: "application/pdf", size: 10, createJob: true, jobType: "pdf.nothing" }), "NOT_FOUND", 404);
    await expectApiError(() => c.files.presignUpload({ filename: "a.pdf", mime: "application/pdf", size: 10, createJob: true, jobType: "pdf.compress", params: { level: 99 } }), "VALIDATION_ERROR", 400);
  });

  test("status shows the queue depth", async () => {
    expect(typeof (await srv.anon().status()).queueDepth).toBe("number");
  });
});

/** A 440 Hz mono WAV of `seconds` at 16 kHz, written in code. */
const wav = (seconds = 1) => toneWav({ seconds, rate: 16_000, amplitude: 12_000 });

describe("other families on the server", () => {
  test("media.transcode WAV -> MP3 (ffprobe reads it) and PCB render-board of a real board", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([wav(1)]), { filename: "tone.wav", mime: "audio/wav" });
    const job = await c.t.call<Job>("POST", "/api/tools/media.transcode", { fileIds: [f.fileId], params: { to: "mp3" } });
    expect(job.status).toBe("succeeded");
    const mp3 = new Uint8Array(await (await c.files.download(job.outputs[0].fileId)).arrayBuffer());
    const path = join(tmp, "tone.mp3");
    writeFileSync(path, mp3);
    const probe = JSON.parse(spawnSync("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", path], { encoding: "utf8" }).stdout);
    expect(probe.streams[0].codec_name).toBe("mp3");
    expect(Math.abs(Number(probe.format.duration) - 1)).toBeLessThan(0.2);

    const { zipSync } = await import("fflate");
    const { readdirSync, readFileSync } = await import("node:fs");
    const boardDir = join(import.meta.dir, "..", "node_modules", "@tracespace", "fixtures", "boards", "arduino-uno");
    const files = Object.fromEntries(readdirSync(boardDir).filter((n) => !n.endsWith(".json") && !n.endsWith(".md")).map((n) => [n, new Uint8Array(readFileSync(join(boardDir, n)))]));
    const zip = zipSync(files);
    const board = await c.files.upload(new Blob([zip as Uint8Array<ArrayBuffer>]), { filename: "arduino.zip", mime: "application/zip" });
    const render = await c.t.call<Job>("POST", "/api/tools/pcb.render-board", { fileIds: [board.fileId] });
    expect(render.status).toBe("succeeded");
    expect(render.outputs.map((o) => o.mime)).toEqual(["image/svg+xml", "image/svg+xml"]);
    const svg = await (await c.files.download(render.outputs[0].fileId)).text();
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('viewBox="');
  }, 60_000);
  test("drawing tools on a DWG and a DXF (issue 23): info, SVG, GeoJSON then gis.convert; a damaged DWG fails with INPUT_INVALID and the next job succeeds", async () => {
    const c = await srv.user();
    const dwg = await c.files.upload(new Blob([await fixture("drawing/example_2018.dwg").bytes()]), { filename: "example.dwg", mime: "application/octet-stream" });
    const dxf = await c.files.upload(new Blob([await fixture("drawing/sample_r14.dxf").bytes()]), { filename: "sample.dxf", mime: "image/vnd.dxf" });
    const info = await c.t.call<Job>("POST", "/api/tools/drawing.info", { fileIds: [dwg.fileId] });
    expect(info.status).toBe("succeeded");
    const report = JSON.parse(await (await c.files.download(info.outputs[0].fileId)).text());
    expect(report).toMatchObject({ format: "dwg", version: "AC1032", entityCount: 65 });
    const svg = await c.t.call<Job>("POST", "/api/tools/drawing.to-svg", { fileIds: [dxf.fileId], params: { layers: ["TAVOLO_1"] } });
    expect(svg.status).toBe("succeeded");
    expect(svg.outputs[0].mime).toBe("image/svg+xml");
    expect(await (await c.files.download(svg.outputs[0].fileId)).text()).toContain('data-layer="TAVOLO_1"');
    const geojson = await c.t.call<Job>("POST", "/api/tools/drawing.to-geojson", { fileIds: [dxf.fileId] });
    expect(geojson.status).toBe("succeeded");
    const gpkg = await c.t.call<Job>("POST", "/api/tools/gis.convert", { fileIds: [geojson.outputs[0].fileId], params: { to: "gpkg" } });
    expect(gpkg.status).toBe("succeeded");
    const path = join(tmp, "sample.gpkg");
    writeFileSync(path, new Uint8Array(await (await c.files.download(gpkg.outputs[0].fileId)).arrayBuffer()));
    expect(spawnSync("ogrinfo", ["-so", "-al", path], { encoding: "utf8" }).stdout).toContain("Feature Count: 6");

    const cut = (await fixture("drawing/example_2018.dwg").bytes()).slice(0, 20_000);
    const damaged = await c.files.upload(new Blob([cut]), { filename: "cut.dwg", mime: "application/octet-stream" });
    const failed = await c.t.call<Job>("POST", "/api/tools/drawing.to-svg", { fileIds: [damaged.fileId] });
    expect(failed).toMatchObject({ status: "failed", errorCode: "INPUT_INVALID" });
    expect(failed.error).toMatch(/damaged or truncated/);
    const again = await c.t.call<Job>("POST", "/api/tools/drawing.info", { fileIds: [dwg.fileId] });
    expect(again.status).toBe("succeeded");
  }, 120_000);

  test("mesh tools (issue 23): STL -> 3MF -> GLB keeps the cube's 12 triangles; an STL lying about its count is refused at upload", async () => {
    const { readFileSync } = await import("node:fs");
    const stl = new Uint8Array(readFileSync(join(import.meta.dir, "..", "node_modules", "occt-import-js", "test", "testfiles", "cube-10x10mm", "Cube 10x10.stl")));
    const c = await srv.user();
    const cube = await c.files.upload(new Blob([stl]), { filename: "cube.stl", mime: "model/stl" });
    const threeMf = await c.t.call<Job>("POST", "/api/tools/mesh.convert", { fileIds: [cube.fileId], params: { to: "3mf" } });
    expect(threeMf.status).toBe("succeeded");
    expect(threeMf.outputs[0]).toMatchObject({ filename: "cube.3mf", mime: "model/3mf" });
    const glb = await c.t.call<Job>("POST", "/api/tools/mesh.convert", { fileIds: [threeMf.outputs[0].fileId], params: { to: "glb" } });
    expect(glb.status).toBe("succeeded");
    const info = await c.t.call<Job>("POST", "/api/tools/mesh.info", { fileIds: [glb.outputs[0].fileId] });
    expect(JSON.parse(await (await c.files.download(info.outputs[0].fileId)).text())).toMatchObject({ format: "glb", triangles: 12, watertight: true });
    // A binary STL whose count does not match its size is refused at upload already (the tool's own check is tested in wasm-tools).
    const lying = stl.slice();
    new DataView(lying.buffer).setUint32(80, 13, true);
    await expectApiError(() => c.files.upload(new Blob([lying]), { filename: "lying.stl", mime: "model/stl" }), "FILE_SIGNATURE_MISMATCH", 422);
  }, 120_000);

  test("gis.convert GeoJSON -> GeoPackage on the server, read back by ogrinfo", async () => {
    const c = await srv.user();
    const geojson = JSON.stringify({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { name: "a" }, geometry: { type: "Point", coordinates: [10, 50] } },
        { type: "Feature", properties: { name: "b" }, geometry: { type: "Point", coordinates: [11, 51] } },
      ],
    });
    const f = await c.files.upload(new Blob([geojson]), { filename: "pts.geojson", mime: "application/geo+json" });
    const job = await c.t.call<Job>("POST", "/api/tools/gis.convert", { fileIds: [f.fileId], params: { to: "gpkg" } });
    expect(job.status).toBe("succeeded");
    const path = join(tmp, "pts.gpkg");
    writeFileSync(path, new Uint8Array(await (await c.files.download(job.outputs[0].fileId)).arrayBuffer()));
    const info = spawnSync("ogrinfo", ["-so", "-al", path], { encoding: "utf8" }).stdout;
    expect(info).toContain("Feature Count: 2");
    expect(info).toContain("Point");
  }, 60_000);
});
