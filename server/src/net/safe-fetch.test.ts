/**
 * Real HTTP over loopback only: every server here listens on 127.0.0.0/8 or [::1], and every
 * name a test uses is answered by an injected resolver, so no packet leaves this machine.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Server, Socket, TCPSocketListener } from "bun";
import { ServiceError } from "@vektor/shared/errors";
import { rejection } from "@vektor/shared/testing";
import type { Resolver } from "./address-guard.ts";
import { pinTarget, safeFetch, type SafeFetchOptions } from "./safe-fetch.ts";

// Self-signed for DNS:pinned.test, valid 2000-2100. A test fixture, not a secret.
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg8PZuqEaAb1vQLwT3
j4j4jDjroMmem8LBZjZV2Cs3p1uhRANCAAQpzxoKASm2n5ysno5Lw3Xf5s/zVt25
D/0eS7mnxFq+NYN5kYdaGi739+dfPKldHiWhwCzE+7m1JqxWlX2VDtOk
-----END PRIVATE KEY-----`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBZjCCAQ2gAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtwaW5uZWQu
dGVzdDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLcGlubmVkLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQpzxoKASm2
n5ysno5Lw3Xf5s/zVt25D/0eS7mnxFq+NYN5kYdaGi739+dfPKldHiWhwCzE+7m1
JqxWlX2VDtOko0owSDAWBgNVHREEDzANggtwaW5uZWQudGVzdDAPBgNVHRMBAf8E
BTADAQH/MB0GA1UdDgQWBBQaWhNx0U0UauIa70XUQD/pDS1cAjAKBggqhkjOPQQD
AgNHADBEAiAHCdXSrAKnat8mDiW5t9Trd294JicHrhDTIA6wrd0X6wIgVbgRtJqa
yV2WiREPD8H8N4m5lnaaZm8bxhVPiKTCICo=
-----END CERTIFICATE-----`;

const FILE = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7 + 3) % 256);

let files: Server<undefined>;
let tlsFiles: Server<undefined>;
let filesBase: string;
/** Counts what reaches the "internal" targets; a blocked import must leave both at zero. */
const hits = { connections: 0, requests: 0 };
let counting: Record<"v4" | "v4b" | "v6", TCPSocketListener<undefined>>;
/** Raw servers for the cases fetch-based servers cannot express. */
let silent: TCPSocketListener<undefined>;
let headersOnly: TCPSocketListener<undefined>;
let stalledBody: TCPSocketListener<undefined>;

function chunkedBody(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(1000, size - sent);
      controller.enqueue(new Uint8Array(n).fill(sent / 1000 + 1));
      sent += n;
    },
  });
}

function route(req: Request): Response {
  const url = new URL(req.url);
  const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
  if (hops) return Response.redirect(Number(hops[1]) > 1 ? `/hops/${Number(hops[1]) - 1}` : "/file.bin", 302);
  switch (url.pathname) {
    case "/file.bin":
      return new Response(FILE, { headers: { "content-type": "application/octet-stream" } });
    case "/named":
      return new Response("named", { headers: { "content-disposition": "attachment; filename=\"plain.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf" } });
    case "/echo-host":
      return new Response(req.headers.get("host"));
    case "/to-internal":
      return Response.redirect(`http://127.0.0.2:${counting.v4b.port}/x`, 302);
    case "/to-file-scheme":
      return Response.redirect("file:///etc/passwd", 302);
    case "/missing":
      return new Response("nope", { status: 404 });
    case "/chunked":
      return new Response(chunkedBody(Number(url.searchParams.get("size"))));
    default:
      return new Response("unknown route", { status: 500 });
  }
}

function countingServer(hostname: string): TCPSocketListener<undefined> {
  return Bun.listen({
    hostname,
    port: 0,
    socket: {
      open() {
        hits.connections++;
      },
      data(socket: Socket<undefined>) {
        hits.requests++;
        socket.end("HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: close\r\n\r\ncounted");
      },
    },
  });
}

function rawServer(onData: (socket: Socket<undefined>) => void): TCPSocketListener<undefined> {
  return Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: onData } });
}

beforeAll(() => {
  files = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: route });
  filesBase = `http://127.0.0.1:${files.port}`;
  tlsFiles = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { key: TLS_KEY, cert: TLS_CERT }, fetch: route });
  counting = { v4: countingServer("127.0.0.1"), v4b: countingServer("127.0.0.2"), v6: countingServer("::1") };
  silent = rawServer(() => {});
  headersOnly = rawServer((s) => void s.write("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n"));
  stalledBody = rawServer((s) => void s.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"));
});

afterAll(() => {
  for (const server of [files, tlsFiles]) server.stop(true);
  for (const listener of [...Object.values(counting), silent, headersOnly, stalledBody]) listener.stop(true);
});

beforeEach(() => {
  hits.connections = 0;
  hits.requests = 0;
});

const local = (server: { port?: number }) => `127.0.0.1:${server.port}`;
const options = (over: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({ allowHosts: [local(files)], maxBytes: 10_000, timeoutMs: 5_000, ...over });

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Reads until the stream errors; returns how many bytes came through first and the error. */
async function readUntilError(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; error: unknown }> {
  const reader = stream.getReader();
  let bytes = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
  } catch (error) {
    return { bytes, error };
  }
  return { bytes, error: null };
}

describe("safeFetch over loopback", () => {
  test("an allowed host yields the exact bytes and metadata", async () => {
    const result = await safeFetch(`${filesBase}/file.bin`, options());
    expect(await readAll(result.body)).toEqual(FILE);
    expect(result.finalUrl).toBe(`${filesBase}/file.bin`);
    expect(result.contentType).toBe("application/octet-stream");
    expect(result.contentLength).toBe(1000);
    expect(result.filename).toBe("file.bin");
  });

  test("the same server is blocked without allowHosts", async () => {
    const error = await rejection(safeFetch(`${filesBase}/file.bin`, options({ allowHosts: [] })));
    expect(error).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: 'host "127.0.0.1" points to a blocked address range (loopback)' });
  });

  test("the counting servers do count, so the zeros below mean nothing was sent", async () => {
    const targets = [`127.0.0.1:${counting.v4.port}`, `127.0.0.2:${counting.v4b.port}`, `[::1]:${counting.v6.port}`];
    for (const target of targets) {
      const result = await safeFetch(`http://${target}/x`, options({ allowHosts: [target] }));
      expect(new TextDecoder().decode(await readAll(result.body))).toBe("counted");
    }
    expect(hits).toEqual({ connections: 3, requests: 3 });
  });

  test("a redirect to an internal address is blocked before any request is sent", async () => {
    const error = await rejection(safeFetch(`${filesBase}/to-internal`, options()));
    expect(error).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: 'redirect blocked: host "127.0.0.2" points to a blocked address range (loopback)' });
    expect(hits).toEqual({ connections: 0, requests: 0 });
  });

  test("a redirect to another scheme is blocked", async () => {
    const error = await rejection(safeFetch(`${filesBase}/to-file-scheme`, options()));
    expect(error).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: 'redirect blocked: scheme "file:" is not allowed; use http or https' });
  });

  test("every spelling of a loopback target is blocked and never contacted", async () => {
    const p4 = counting.v4.port;
    const urls = [
      `http://127.0.0.2:${counting.v4b.port}/x`,
      `http://localhost:${p4}/x`,
      `http://0x7f000001:${p4}/x`,
      `http://2130706433:${p4}/x`,
      `http://0177.0.0.1:${p4}/x`,
      `http://127.1:${p4}/x`,
      `http://[::ffff:127.0.0.1]:${p4}/x`,
      `http://[::1]:${counting.v6.port}/x`,
    ];
    for (const url of urls) {
      const error = await rejection(safeFetch(url, options({ allowHosts: [] })));
      expect({ url, code: error.code }).toEqual({ url, code: "IMPORT_BLOCKED" });
    }
    expect(hits).toEqual({ connections: 0, requests: 0 });
  });

  test("a name is resolved once and the checked address is the one connected to", async () => {
    const lookups: string[] = [];
    const resolve: Resolver = async (name) => {
      lookups.push(name);
      return name === "pinned.test" ? ["127.0.0.1"] : [];
    };
    // pinned.test does not exist in real DNS: a second, unpinned lookup would fail the import.
    const result = await safeFetch(`http://pinned.test:${files.port}/echo-host`, options({ allowHosts: ["pinned.test"], resolve }));
    expect(new TextDecoder().decode(await readAll(result.body))).toBe(`pinned.test:${files.port}`);
    expect(result.finalUrl).toBe(`http://pinned.test:${files.port}/echo-host`);
    expect(lookups).toEqual(["pinned.test"]);
  });

  test("when the first checked address refuses, the next one is tried", async () => {
    const resolve: Resolver = async () => ["::1", "127.0.0.1"]; // nothing listens on [::1] at this port
    const result = await safeFetch(`http://multi.test:${files.port}/echo-host`, options({ allowHosts: ["multi.test"], resolve }));
    expect(new TextDecoder().decode(await readAll(result.body))).toBe(`multi.test:${files.port}`);
  });

  test("when every address refuses, the import fails naming the host", async () => {
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    const error = await rejection(safeFetch(`http://127.0.0.1:${port}/`, options({ allowHosts: [`127.0.0.1:${port}`] })));
    expect(error).toEqual({ code: "VALIDATION_ERROR", status: 400, message: 'could not connect to "127.0.0.1" (ECONNREFUSED)' });
  });

  test("https to a name connects to the pinned address and still verifies the certificate", async () => {
    const resolve: Resolver = async () => ["127.0.0.1"];
    const error = await rejection(safeFetch(`https://pinned.test:${tlsFiles.port}/file.bin`, options({ allowHosts: ["pinned.test"], resolve })));
    // Self-signed, so an untrusted chain is the expected failure: verification was not switched off.
    expect(error).toEqual({ code: "VALIDATION_ERROR", status: 400, message: 'could not connect to "pinned.test" (DEPTH_ZERO_SELF_SIGNED_CERT)' });
  });

  test("redirects are followed up to maxRedirects and no further", async () => {
    const five = await safeFetch(`${filesBase}/hops/5`, options());
    expect(await readAll(five.body)).toEqual(FILE);
    expect(five.finalUrl).toBe(`${filesBase}/file.bin`);
    expect(await rejection(safeFetch(`${filesBase}/hops/6`, options()))).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: "too many redirects (more than 5)" });
    expect(await rejection(safeFetch(`${filesBase}/hops/1`, options({ maxRedirects: 0 })))).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: "too many redirects (more than 0)" });
  });

  test("a remote error status is a validation error naming the status", async () => {
    expect(await rejection(safeFetch(`${filesBase}/missing`, options()))).toEqual({ code: "VALIDATION_ERROR", status: 400, message: "remote server answered 404" });
  });

  test("Content-Disposition names the file, filename* first", async () => {
    const result = await safeFetch(`${filesBase}/named`, options());
    expect(result.filename).toBe("résumé.pdf");
    await result.body.cancel();
  });

  test("a declared Content-Length over the cap fails at once, without reading the body", async () => {
    // The server sends headers and then nothing: reading the body would hang until the timeout,
    // 20 s here, so a bound of half that tells the two apart with room for a busy machine.
    const started = performance.now();
    const error = await rejection(safeFetch(`http://${local(headersOnly)}/big`, options({ allowHosts: [local(headersOnly)], maxBytes: 1000, timeoutMs: 20_000 })));
    expect(error).toEqual({ code: "PAYLOAD_TOO_LARGE", status: 413, message: "the remote file is larger than the import limit of 1000 bytes" });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("a chunked body over the cap errors the stream with 413 after at most maxBytes", async () => {
    const result = await safeFetch(`${filesBase}/chunked?size=5000`, options({ maxBytes: 2500 }));
    expect(result.contentLength).toBeNull();
    const { bytes, error } = await readUntilError(result.body);
    expect(bytes).toBeLessThanOrEqual(2500);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe("PAYLOAD_TOO_LARGE");
    expect((error as ServiceError).status).toBe(413);
  });

  test("a chunked body of exactly maxBytes passes whole", async () => {
    const result = await safeFetch(`${filesBase}/chunked?size=2500`, options({ maxBytes: 2500 }));
    const body = await readAll(result.body);
    expect(body.byteLength).toBe(2500);
    expect([body[0], body[1999], body[2000], body[2499]]).toEqual([1, 2, 3, 3]);
  });

  test("a server that never answers times out within timeoutMs", async () => {
    const started = performance.now();
    const error = await rejection(safeFetch(`http://${local(silent)}/`, options({ allowHosts: [local(silent)], timeoutMs: 300 })));
    const elapsed = performance.now() - started;
    expect(error).toEqual({ code: "VALIDATION_ERROR", status: 400, message: "import timed out after 0.3 s" });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    // Slack for a busy machine; a timer never armed, or read as seconds (300 s), still fails.
    expect(elapsed).toBeLessThan(5_000);
  });

  test("the timeout also covers a body that stalls", async () => {
    const result = await safeFetch(`http://${local(stalledBody)}/`, options({ allowHosts: [local(stalledBody)], timeoutMs: 300 }));
    const { bytes, error } = await readUntilError(result.body);
    expect(bytes).toBe(10);
    expect((error as ServiceError).message).toBe("import timed out after 0.3 s");
  });

  test("the timeout also covers a DNS lookup that hangs", async () => {
    const resolve: Resolver = () => new Promise(() => {});
    const error = await rejection(safeFetch("http://slow.test/", options({ resolve, timeoutMs: 200 })));
    expect(error).toEqual({ code: "VALIDATION_ERROR", status: 400, message: "import timed out after 0.2 s" });
  });
});

describe("pinTarget", () => {
  test("http keeps the name in Host and needs no TLS name", () => {
    expect(pinTarget(new URL("http://pinned.test:8080/a?b=1"), "93.184.216.34")).toEqual({ href: "http://93.184.216.34:8080/a?b=1", host: "pinned.test:8080", tls: undefined });
    expect(pinTarget(new URL("http://pinned.test/"), "2606:4700::1")).toEqual({ href: "http://[2606:4700::1]/", host: "pinned.test", tls: undefined });
  });

  test("https by name is verified against the name while connecting to the IP", async () => {
    const url = new URL(`https://pinned.test:${tlsFiles.port}/echo-host`);
    const target = pinTarget(url, "127.0.0.1");
    expect(target).toEqual({ href: `https://127.0.0.1:${tlsFiles.port}/echo-host`, host: `pinned.test:${tlsFiles.port}`, tls: { serverName: "pinned.test" } });
    const response = await fetch(target.href, { headers: { host: target.host }, tls: { ...target.tls, ca: TLS_CERT } });
    expect(await response.text()).toBe(`pinned.test:${tlsFiles.port}`);
  });

  test("a certificate for another name is refused", async () => {
    const target = pinTarget(new URL(`https://other.test:${tlsFiles.port}/echo-host`), "127.0.0.1");
    const error = await fetch(target.href, { headers: { host: target.host }, tls: { ...target.tls, ca: TLS_CERT } }).then(
      () => null,
      (e: { code?: string }) => e.code,
    );
    expect(error).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
  });
});
