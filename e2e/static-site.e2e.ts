/**
 * The server serves the built web app: MIME types (WASM as application/wasm), a year's cache
 * for hashed assets and revalidation for the rest, index.html for page paths, API paths left to
 * the API (an unknown one is still the JSON NOT_FOUND envelope), every compressible file and
 * WASM in brotli or gzip when asked (the build's precompressed copies) and as is otherwise, and without a build a short
 * page that says how to make one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { acceptedEncodings, staticSite } from "../server/src/http/static";
import { startTestServer, type TestServer } from "../server/test/harness";
import { requireWebBuild, WEB_DIST } from "./support/web";

let srv: TestServer;
beforeAll(async () => {
  requireWebBuild();
  srv = await startTestServer();
});
afterAll(() => srv?.close());

const get = (path: string, init?: RequestInit) => fetch(srv.url + path, init);

describe("the web app on the server", () => {
  test("/ is the page, revalidated on every visit", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toContain('<div id="app">');
  });

  test("hashed assets: their MIME types and a year's immutable cache", async () => {
    const assets = readdirSync(join(WEB_DIST, "assets"), { recursive: true, encoding: "utf8" });
    const want: Record<string, string> = { ".wasm": "application/wasm", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
    for (const [ext, mime] of Object.entries(want)) {
      const name = assets.find((f) => f.endsWith(ext));
      expect(name).toBeDefined();
      const res = await get(`/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(mime);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      if (ext === ".wasm") expect(WebAssembly.validate(new Uint8Array(await res.arrayBuffer()))).toBe(true);
      else await res.arrayBuffer();
    }
  });

  test("the service worker is served from the root and revalidated; it precaches the shell, not the tools", async () => {
    const res = await get("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = await res.text();
    expect(body).toContain('"index.html"');
    expect(body).not.toContain(".wasm");
    expect(body).not.toMatch(/url:\s*"assets\/tools\//);
    // Tool files are cached on first use instead.
    expect(body).toContain("vektor-tools");
    // Of the screens, those anyone may open (Convert works offline); the ones behind sign-in need
    // the server anyway and are cached when first opened (web/vite/first-visit.ts).
    expect(body).toMatch(/url:\s*"assets\/ConvertScreen-[\w-]+\.js"/);
    expect(body).not.toMatch(/url:\s*"assets\/(FilesScreen|TokensScreen|AdminScreen)-/);
    expect(body).toContain("vektor-screens");
  });

  test("the web manifest and its icons", async () => {
    const res = await get("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const manifest = (await res.json()) as { name: string; display: string; start_url: string; theme_color: string; icons: { src: string; sizes: string; purpose: string }[] };
    expect(manifest).toMatchObject({ name: "Vektor", display: "standalone", start_url: "/" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const [sizes, purpose] of [["192x192", "any"], ["512x512", "any"], ["192x192", "maskable"], ["512x512", "maskable"]]) {
      const icon = manifest.icons.find((i) => i.sizes === sizes && i.purpose === purpose);
      expect(icon).toBeDefined();
      const png = await get(`/${icon!.src}`);
      expect(png.headers.get("content-type")).toBe("image/png");
      const bytes = new Uint8Array(await png.arrayBuffer());
      const view = new DataView(bytes.buffer);
      // The IHDR chunk: width and height at bytes 16 and 20.
      expect([view.getUint32(16), view.getUint32(20)]).toEqual(sizes.split("x").map(Number));
    }
  });

  test("page paths fall back to index.html; missing files are 404", async () => {
    const page = await get("/some/page");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    for (const path of ["/assets/nothing-123.js", "/missing.png", "/../package.json"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
  });

  test("API, docs, OpenAPI and status keep their own routes; unknown API paths stay JSON 404", async () => {
    expect((await get("/api/health")).status).toBe(200);
    expect((await get("/openapi.json")).headers.get("content-type")).toContain("application/json");
    expect((await get("/status")).status).toBe(200);
    expect((await get("/docs")).status).toBe(200);
    expect((await get("/api/auth/get-session")).status).toBe(200);
    for (const [method, path] of [["GET", "/api/nothing"], ["GET", "/docs/nothing"], ["POST", "/"]]) {
      const res = await get(path, { method, headers: { origin: srv.url } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ ok: false, error: { code: "NOT_FOUND", message: "No such route" } });
    }
  });

  test("every compressible file and WASM: brotli or gzip when asked, the same bytes as identity otherwise, with Vary", async () => {
    const site = staticSite({ dir: WEB_DIST });
    const ask = (path: string, encoding?: string) => site.handle(new Request(`http://127.0.0.1/${path}`, { headers: encoding ? { "accept-encoding": encoding } : {} }));
    const files = readdirSync(WEB_DIST, { recursive: true, encoding: "utf8" }).filter((f) => /\.(html|js|css|json|webmanifest|svg|wasm|data)$/.test(f));
    expect(files.filter((f) => f.endsWith(".wasm")).length).toBeGreaterThan(0);
    let checked = 0;
    for (const file of files) {
      const identity = new Uint8Array(readFileSync(join(WEB_DIST, file)));
      if (identity.length < 512) continue;
      for (const [asked, coding, decode] of [
        ["br, gzip, deflate", "br", brotliDecompressSync],
        ["gzip", "gzip", gunzipSync],
        ["gzip;q=1, br;q=0", "gzip", gunzipSync],
        ["identity", null, null],
        [undefined, null, null],
      ] as const) {
        const res = await ask(file, asked);
        expect({ file, asked, status: res.status, coding: res.headers.get("content-encoding"), vary: res.headers.get("vary") }).toEqual({ file, asked, status: 200, coding, vary: "Accept-Encoding" });
        const body = new Uint8Array(await res.arrayBuffer());
        const plain = decode ? new Uint8Array(decode(body)) : body;
        if (decode) expect(body.length).toBeLessThan(identity.length);
        expect(plain.length).toBe(identity.length);
        expect({ file, asked, hash: Bun.hash(plain) }).toEqual({ file, asked, hash: Bun.hash(identity) });
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  }, 300_000);

  test("Accept-Encoding is read with its q values and *", () => {
    expect([...acceptedEncodings("gzip, deflate, br, zstd")].sort()).toEqual(["br", "deflate", "gzip", "zstd"]);
    expect([...acceptedEncodings("br;q=0, *;q=0.5")].sort()).toEqual(["*", "gzip"]);
    expect([...acceptedEncodings(null)]).toEqual([]);
  });

  test("without a build, / says how to build the web app", async () => {
    const empty = mkdtempSync(join(tmpdir(), "vektor-no-web-"));
    try {
      const res = await staticSite({ dir: empty }).handle(new Request("http://127.0.0.1/"));
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("web app is not built");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
