/** The Host/Origin guard of /api/mcp for the deployments a test server cannot be: a public name, all interfaces, IPv6. */
import { describe, expect, test } from "bun:test";
import { allowedHostnames, checkHostAndOrigin } from "./http";

const post = (headers: Record<string, string>) => new Request("http://placeholder/api/mcp", { method: "POST", headers });

describe("allowedHostnames", () => {
  test("behind a proxy on all interfaces: PUBLIC_URL's name and loopback, never the wildcard", () => {
    const names = allowedHostnames({ host: "0.0.0.0", publicUrl: "https://Vektor.Example.com" });
    expect([...names].sort()).toEqual(["127.0.0.1", "[::1]", "localhost", "vektor.example.com"]);
  });

  test("a specific address (IPv6 in brackets, as URL hostnames are)", () => {
    expect(allowedHostnames({ host: "fd00::5", publicUrl: "http://[fd00::5]:8080" }).has("[fd00::5]")).toBe(true);
    expect(allowedHostnames({ host: "10.1.2.3", publicUrl: "http://files.lan" }).has("10.1.2.3")).toBe(true);
  });
});

describe("checkHostAndOrigin", () => {
  const allowed = allowedHostnames({ host: "0.0.0.0", publicUrl: "https://vektor.example.com" });

  test("the public name on any port, with or without a matching Origin, passes", () => {
    expect(checkHostAndOrigin(post({ host: "vektor.example.com" }), allowed)).toBeNull();
    expect(checkHostAndOrigin(post({ host: "vektor.example.com:443", origin: "https://vektor.example.com" }), allowed)).toBeNull();
    expect(checkHostAndOrigin(post({ host: "[::1]:8080" }), allowed)).toBeNull();
  });

  test("a rebinding name, a foreign or opaque Origin, or no Host is a 403 JSON-RPC error", async () => {
    const refused: Record<string, string>[] = [{ host: "attacker.example" }, { host: "vektor.example.com", origin: "https://attacker.example" }, { host: "vektor.example.com", origin: "null" }, { host: "bad host" }, {}];
    for (const headers of refused) {
      const res = checkHostAndOrigin(post(headers), allowed);
      expect(res?.status).toBe(403);
      expect(await res?.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, data: { code: "FORBIDDEN" } } });
    }
  });
});
