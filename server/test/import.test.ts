/**
 * import-url over real HTTP, on loopback only: a file server on 127.0.0.1 and a "victim" on
 * 127.0.0.2 that counts every request it gets; every blocked import must leave it at zero.
 * (The non-loopback ranges are unit-tested in src/net without any connection.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { makePdf, noise } from "./fixtures";

let srv: TestServer;
let origin: ReturnType<typeof Bun.serve>;
let victim: ReturnType<typeof Bun.serve>;
let victimHits = 0;
let pdf: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  pdf = await makePdf(2);
  srv = await startTestServer();
  victim = Bun.serve({
    hostname: "127.0.0.2",
    port: 0,
    fetch() {
      victimHits++;
      return new Response("secret");
    },
  });
  origin = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/doc.pdf") return new Response(pdf, { headers: { "content-type": "application/pdf" } });
      if (path === "/named") return new Response(pdf, { headers: { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="from-header.pdf"' } });
      if (path === "/fake.pdf") return new Response(noise(2000), { headers: { "content-type": "application/pdf" } });
      if (path === "/big.bin") return new Response(noise(3 * 1024 * 1024), { headers: { "content-type": "application/octet-stream" } });
      if (path === "/stream.bin")
        return new Response(
          new ReadableStream({
            async pull(ctl) {
              ctl.enqueue(noise(256 * 1024));
            },
          }),
          { headers: { "content-type": "application/octet-stream" } },
        );
      if (path === "/to-victim") return Response.redirect(`http://127.0.0.2:${victim.port}/x`, 302);
      if (path === "/to-localhost") return Response.redirect(`http://localhost:${victim.port}/x`, 302);
      if (path === "/missing") return new Response("no", { status: 404 });
      return new Response("?", { status: 400 });
    },
  });
});

afterAll(async () => {
  origin.stop(true);
  victim.stop(true);
  await srv.close();
});

async function allow(hosts: string[]) {
  const a = await srv.admin();
  await a.admin.setConfig("platform_configs", { "net.allow_hosts": hosts });
}

describe("import-url", () => {
  test("an allowed host: the file is fetched, checked and UPLOADED with the same bytes", async () => {
    await allow([`127.0.0.1:${origin.port}`]);
    const c = await srv.user();
    const f = await c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/doc.pdf` });
    expect(f).toMatchObject({ filename: "doc.pdf", mime: "application/pdf", size: pdf.length, status: "UPLOADED", format: "pdf" });
    expect(new Uint8Array(await (await c.files.download(f.fileId)).arrayBuffer())).toEqual(pdf);
    const named = await c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/named` });
    expect(named).toMatchObject({ filename: "from-header.pdf", mime: "application/pdf", format: "pdf" });
  });

  test("loopback and private targets are IMPORT_BLOCKED and receive no packet", async () => {
    await allow([`127.0.0.1:${origin.port}`]);
    const c = await srv.user();
    const p = victim.port;
    const originPort = origin.port!;
    const blocked = [
      `http://127.0.0.2:${p}/x`,
      `http://localhost:${p}/x`,
      `http://[::1]:${p}/x`,
      `http://0x7f000002:${p}/x`,
      `http://2130706434:${p}/x`,
      `http://[::ffff:127.0.0.2]:${p}/x`,
      `http://127.0.0.1:${originPort + 1 === p ? originPort + 2 : originPort + 1}/x`, // same host, a port not on the allow-list
      `http://127.0.0.1:${originPort}/to-victim`,
      `http://127.0.0.1:${originPort}/to-localhost`,
    ];
    for (const url of blocked) await expectApiError(() => c.files.importUrl({ url }), "IMPORT_BLOCKED", 422);
    expect(victimHits).toBe(0);
    expect((await c.files.list()).items).toEqual([]);
  });

  test("schemes other than http(s) are IMPORT_BLOCKED", async () => {
    const c = await srv.user();
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1:70/_x", "data:text/plain,hi"]) {
      await expectApiError(() => c.files.importUrl({ url }), "IMPORT_BLOCKED", 422);
    }
    await expectApiError(() => c.files.importUrl({ url: "not a url" }), "VALIDATION_ERROR", 400);
  });

  test("over import.max_size_mb is 413 and nothing is left behind (with and without Content-Length)", async () => {
    await allow([`127.0.0.1:${origin.port}`]);
    const a = await srv.admin();
    await a.admin.setConfig("platform_configs", { "import.max_size_mb": 1 });
    try {
      const c = await srv.user();
      await expectApiError(() => c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/big.bin` }), "PAYLOAD_TOO_LARGE", 413);
      await expectApiError(() => c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/stream.bin` }), "PAYLOAD_TOO_LARGE", 413);
      expect((await c.files.list()).items).toEqual([]);
      expect((await srv.anon().health()).status).toBe("ok");
    } finally {
      await a.admin.setConfig("platform_configs", { "import.max_size_mb": 200 });
    }
  });

  test("remote errors and signature mismatches are refused cleanly", async () => {
    await allow([`127.0.0.1:${origin.port}`]);
    const c = await srv.user();
    await expectApiError(() => c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/missing` }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/fake.pdf` }), "FILE_SIGNATURE_MISMATCH", 422);
    expect((await c.files.list()).items).toEqual([]);
  });

  test("without the allow-list entry even the origin on 127.0.0.1 is blocked", async () => {
    await allow([]);
    const c = await srv.user();
    await expectApiError(() => c.files.importUrl({ url: `http://127.0.0.1:${origin.port}/doc.pdf` }), "IMPORT_BLOCKED", 422);
  });
});
