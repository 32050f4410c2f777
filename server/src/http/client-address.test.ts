/** TRUST_PROXY: which hops are believed, and what a forged header can and cannot change. */
import { describe, expect, test } from "bun:test";
import { originOf, parseTrustProxy } from "./client-address";

const req = (headers: Record<string, string> = {}, url = "http://app.test/api/files") => new Request(url, { headers: { host: "app.test", ...headers } });

describe("parseTrustProxy", () => {
  test("empty, false and 0 trust nobody; a number is a hop count; a list is ranges", () => {
    for (const v of [undefined, "", "false", "0"]) expect(parseTrustProxy(v)).toEqual({ kind: "none" });
    expect(parseTrustProxy("2")).toEqual({ kind: "hops", hops: 2 });
    expect(parseTrustProxy("10.0.0.0/8, ::1, loopback").kind).toBe("ranges");
  });

  test("anything else is refused at boot, naming the entry", () => {
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow('"10.0.0.0/33"');
    expect(() => parseTrustProxy("proxy.example")).toThrow("proxy.example");
  });
});

describe("originOf", () => {
  const lan = parseTrustProxy("10.0.0.0/8");

  test("without TRUST_PROXY the connection's peer is the client, whatever the headers say", () => {
    const o = originOf(req({ "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https", "x-forwarded-host": "evil.test" }), "203.0.113.9", parseTrustProxy(""));
    expect(o).toEqual({ address: "203.0.113.9", https: false, host: "app.test" });
  });

  test("from a trusted proxy: the nearest untrusted hop, the forwarded scheme and host", () => {
    const o = originOf(req({ "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https", "x-forwarded-host": "files.example.org" }), "10.1.2.3", lan);
    expect(o).toEqual({ address: "198.51.100.7", https: true, host: "files.example.org" });
  });

  test("a chain of trusted proxies is walked; a forged entry left of the first untrusted hop changes nothing", () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the edge proxy appended the client's real address, an inner proxy the edge's.
    const o = originOf(req({ "x-forwarded-for": "1.2.3.4, 198.51.100.7, 10.0.0.2" }), "10.0.0.1", lan);
    expect(o.address).toBe("198.51.100.7");
  });

  test("the same headers from an untrusted address are ignored", () => {
    const o = originOf(req({ "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https" }), "192.0.2.50", lan);
    expect(o).toEqual({ address: "192.0.2.50", https: false, host: "app.test" });
  });

  test("a hop count trusts that many hops from the peer on, whoever they are", () => {
    const headers = { "x-forwarded-for": "1.2.3.4, 198.51.100.7, 192.0.2.8" };
    expect(originOf(req(headers), "192.0.2.1", parseTrustProxy("1")).address).toBe("192.0.2.8");
    expect(originOf(req(headers), "192.0.2.1", parseTrustProxy("2")).address).toBe("198.51.100.7");
    // More hops than the header holds: the leftmost entry, never past it.
    expect(originOf(req(headers), "192.0.2.1", parseTrustProxy("9")).address).toBe("1.2.3.4");
  });

  test("IPv4-mapped IPv6 peers match IPv4 ranges; IPv6 ranges work; garbage in the header stops the walk at the proxy", () => {
    expect(originOf(req({ "x-forwarded-for": "198.51.100.7" }), "::ffff:10.0.0.1", lan).address).toBe("198.51.100.7");
    expect(originOf(req({ "x-forwarded-for": "2001:db8::5" }), "::1", parseTrustProxy("loopback")).address).toBe("2001:db8::5");
    expect(originOf(req({ "x-forwarded-for": "not-an-ip" }), "10.0.0.1", lan).address).toBe("10.0.0.1");
  });

  test("without X-Forwarded-Proto the connection's own scheme counts", () => {
    expect(originOf(req({}, "https://app.test/x"), "10.0.0.1", lan).https).toBe(true);
    expect(originOf(req({ "x-forwarded-proto": "http" }, "https://app.test/x"), "10.0.0.1", lan).https).toBe(false);
  });
});
