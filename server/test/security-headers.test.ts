/**
 * The security headers of issue 26 over real HTTP on loopback, on every kind of answer: the web
 * app's HTML, a static script and a WASM file (served by the real staticSite from a build folder
 * made here, behind the real httpCore, since the server tests run before the web app is built),
 * JSON, the error envelope, /docs and /openapi.json; HSTS only behind a trusted proxy that says
 * the original request was HTTPS.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { httpCore } from "../src/http/core";
import { APP_CSP, DOCS_CSP, HSTS, WORKER_CSP } from "../src/http/security-headers";
import { staticSite } from "../src/http/static";
import { startTestServer, type TestServer } from "./harness";

let direct: TestServer;
let behindProxy: TestServer;
let site: { url: string; stop(): void; dir: string };

/** A build folder with what a web build holds: index.html, a hashed script and a WASM engine. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "vektor-dist-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body></body></html>');
  writeFileSync(join(dir, "assets", "index-abc.js"), "console.log('app');\n");
  mkdirSync(join(dir, "assets", "tools"));
  writeFileSync(join(dir, "assets", "tools", "tool.worker-abc.js"), "self.onmessage = () => {};\n");
  // The smallest valid module: magic and version.
  writeFileSync(join(dir, "assets", "engine-abc.wasm"), new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  return dir;
}

beforeAll(async () => {
  [direct, behindProxy] = await Promise.all([startTestServer(), startTestServer({ TRUST_PROXY: "127.0.0.1" })]);
  const dir = fakeBuild();
  const app = new Elysia().use(httpCore(direct.services)).use(staticSite({ dir })).listen({ hostname: "127.0.0.1", port: 0 });
  site = { url: `http://127.0.0.1:${app.server!.port}`, stop: () => void app.stop(true), dir };
}, 60_000);

afterAll(async () => {
  site?.stop();
  if (site) rmSync(site.dir, { recursive: true, force: true });
  await Promise.all([direct?.close(), behindProxy?.close()]);
});

/** What every answer carries, whatever its kind. */
function expectCommon(res: Response) {
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  const permissions = res.headers.get("permissions-policy") ?? "";
  for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"]) expect(permissions).toContain(feature);
  expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(res.headers.get("strict-transport-security")).toBeNull();
}

/** A policy's directives by name. */
function directives(csp: string | null): Map<string, string> {
  return new Map((csp ?? "").split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values.join(" ")]));
}

describe("security headers", () => {
  test("the web app's HTML, its scripts and its WASM carry the app's strict policy", async () => {
    for (const path of ["/", "/workflows/some-page", "/assets/index-abc.js", "/assets/engine-abc.wasm"]) {
      const res = await fetch(`${site.url}${path}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expectCommon(res);
      expect(res.headers.get("content-security-policy")).toBe(APP_CSP);
    }
    const csp = directives(APP_CSP);
    expect(csp.get("script-src")).toBe("'self' 'wasm-unsafe-eval'");
    expect(csp.get("worker-src")).toBe("'self'");
    expect(csp.get("connect-src")).toBe("'self'");
    expect(csp.get("style-src")).toBe("'self'");
    expect(csp.get("img-src")).toBe("'self' data: blob:");
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("base-uri")).toBe("'none'");
    expect(csp.get("form-action")).toBe("'self'");
    expect(APP_CSP).not.toContain("'unsafe-eval'");
    expect(csp.get("script-src")).not.toContain("unsafe-inline");
  });

  test("a Web Worker's script: the app's policy plus 'unsafe-eval' for the engines' glue, the page's stays strict", async () => {
    const res = await fetch(`${site.url}/assets/tools/tool.worker-abc.js`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expectCommon(res);
    expect(res.headers.get("content-security-policy")).toBe(WORKER_CSP);
    expect(directives(WORKER_CSP).get("script-src")).toBe("'self' 'wasm-unsafe-eval' 'unsafe-eval'");
    expect(directives(WORKER_CSP).get("connect-src")).toBe("'self'");
  });

  test("a missing static file is a 404 with the same headers", async () => {
    const res = await fetch(`${site.url}/assets/gone-123.js`);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    expectCommon(res);
  });

  test("the server's own page at / (built or not) carries the app's policy", async () => {
    const res = await fetch(`${direct.url}/`);
    expect(res.headers.get("content-type")).toContain("text/html");
    await res.arrayBuffer();
    expectCommon(res);
    expect(res.headers.get("content-security-policy")).toBe(APP_CSP);
  });

  test("JSON answers, the error envelope and /openapi.json let nothing run or frame them", async () => {
    const answers = [
      await fetch(`${direct.url}/api/health`),
      await fetch(`${direct.url}/api/files`), // 401 envelope
      await fetch(`${direct.url}/api/no-such-route`), // 404 envelope
      await fetch(`${direct.url}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
      await fetch(`${direct.url}/openapi.json`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, answers[3]!.status, 200]);
    expect(answers[3]!.status).toBeGreaterThanOrEqual(400);
    for (const res of answers) {
      await res.arrayBuffer();
      expectCommon(res);
      expect(directives(res.headers.get("content-security-policy")).get("default-src")).toBe("'none'");
    }
  });

  test("/docs has its own policy: Scalar's script from here and its one inline element by hash", async () => {
    const res = await fetch(`${direct.url}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expectCommon(res);
    expect(res.headers.get("content-security-policy")).toBe(DOCS_CSP);
    const scriptSrc = directives(DOCS_CSP).get("script-src") ?? "";
    expect(scriptSrc).not.toContain("unsafe-inline");
    // Every inline script of the page as served is allowed by its hash, and nothing else inline.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBeGreaterThan(0);
    for (const text of inline) {
      const hash = new Bun.CryptoHasher("sha256").update(text).digest("base64");
      expect(scriptSrc).toContain(`'sha256-${hash}'`);
    }
  });

  test("HSTS only behind a trusted proxy that says the request was HTTPS", async () => {
    const https = { "x-forwarded-proto": "https" };
    const proxied = await fetch(`${behindProxy.url}/api/health`, { headers: https });
    expect(proxied.headers.get("strict-transport-security")).toBe(HSTS);
    const proxiedPage = await fetch(`${behindProxy.url}/docs`, { headers: https });
    expect(proxiedPage.headers.get("strict-transport-security")).toBe(HSTS);
    const proxiedError = await fetch(`${behindProxy.url}/api/files`, { headers: https });
    expect(proxiedError.status).toBe(401);
    expect(proxiedError.headers.get("strict-transport-security")).toBe(HSTS);
    // Plain HTTP through the same proxy, and a forged header at a server that trusts no proxy here.
    expect((await fetch(`${behindProxy.url}/api/health`)).headers.get("strict-transport-security")).toBeNull();
    expect((await fetch(`${direct.url}/api/health`, { headers: https })).headers.get("strict-transport-security")).toBeNull();
    await Promise.all([proxied, proxiedPage, proxiedError].map((r) => r.arrayBuffer()));
  });
});
