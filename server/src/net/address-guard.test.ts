import { describe, expect, test } from "bun:test";
import { rejection } from "@vektor/shared/testing";
import { checkUrl, classifyAddress, type Resolver } from "./address-guard.ts";

/** A fake DNS: only the names listed here exist. No test here sends a packet anywhere. */
const ZONE: Record<string, string[]> = {
  "evil.test": ["10.0.0.5"],
  "mixed.test": ["93.184.216.34", "127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "metadata6.test": ["fd00:ec2::254"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "cgnat.test": ["100.64.0.7"],
  "public.test": ["93.184.216.34", "2606:4700::1"],
  "internal.test": ["10.1.2.3"],
  "empty.test": [],
};
const fakeDns: Resolver = async (hostname) => {
  const answer = ZONE[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return answer;
};
/** For literal hosts: proves that an IP in the URL is judged as written, never looked up. */
const noDns: Resolver = async (hostname) => {
  throw new Error(`unexpected DNS lookup of ${hostname}`);
};

describe("classifyAddress", () => {
  const blocked: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["169.254.0.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.255", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["198.51.100.1", "reserved"],
    ["203.0.113.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["::ffff:10.0.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["::10.0.0.1", "private"],
    ["::ffff:0:127.0.0.1", "rfc6145"],
    ["64:ff9b::7f00:1", "rfc6052"],
    ["64:ff9b:1::a00:1", "rfc6052"],
    ["2002:7f00:1::", "6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
    ["2001:db8::1", "reserved"],
    ["2001:2::1", "benchmarking"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["100::1", "discard"],
    ["4000::1", "nonGlobal"],
    ["1", "invalid"],
    ["0x7f000001", "invalid"],
    ["localhost", "invalid"],
    ["", "invalid"],
  ];
  test.each(blocked)("%s is blocked as %s", (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ allowed: false, range });
  });

  const allowed = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700::1", "2001:4860:4860::8888", "[2606:4700::1]", "::ffff:8.8.8.8"];
  test.each(allowed)("%s is allowed", (ip) => {
    expect(classifyAddress(ip)).toEqual({ allowed: true, range: "unicast" });
  });
});

describe("checkUrl", () => {
  const guard = { allowHosts: [], resolve: fakeDns };

  test("a public name returns the URL and every resolved address", async () => {
    const { url, addresses } = await checkUrl("https://public.test/a/b.png?x=1", guard);
    expect(url.href).toBe("https://public.test/a/b.png?x=1");
    expect(addresses).toEqual(["93.184.216.34", "2606:4700::1"]);
  });

  test("a public IP literal is returned without a lookup", async () => {
    const { addresses } = await checkUrl("http://93.184.216.34:8080/", { allowHosts: [], resolve: noDns });
    expect(addresses).toEqual(["93.184.216.34"]);
    const v6 = await checkUrl("http://[2606:4700::1]/", { allowHosts: [], resolve: noDns });
    expect(v6.addresses).toEqual(["2606:4700::1"]);
  });

  test.each([
    ["http://evil.test/", "private"],
    ["http://mixed.test/", "loopback"],
    ["http://metadata.test/latest/meta-data/", "linkLocal"],
    ["http://metadata6.test/", "uniqueLocal"],
    ["http://mapped.test/", "loopback"],
    ["http://cgnat.test/", "carrierGradeNat"],
    ["http://EVIL.test./", "private"],
  ])("%s resolves to a blocked range (%s)", async (raw, range) => {
    const hostname = new URL(raw).hostname.replace(/\.$/, "");
    expect(await rejection(checkUrl(raw, guard))).toEqual({
      code: "IMPORT_BLOCKED",
      status: 422,
      message: `host "${hostname}" points to a blocked address range (${range})`,
    });
  });

  test.each([
    ["http://0x7f000001/", "127.0.0.1", "loopback"],
    ["http://2130706433/", "127.0.0.1", "loopback"],
    ["http://0177.0.0.1/", "127.0.0.1", "loopback"],
    ["http://127.1/", "127.0.0.1", "loopback"],
    ["http://127.0.0.1./", "127.0.0.1", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]", "loopback"],
    ["http://[::127.0.0.1]/", "[::7f00:1]", "loopback"],
    ["http://[::1]/", "[::1]", "loopback"],
    ["http://[::]/", "[::]", "unspecified"],
    ["http://0.0.0.0:8080/", "0.0.0.0", "unspecified"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254", "linkLocal"],
    ["http://[fd00:ec2::254]/", "[fd00:ec2::254]", "uniqueLocal"],
    ["http://[fe80::1]/", "[fe80::1]", "linkLocal"],
    ["https://192.168.0.1/", "192.168.0.1", "private"],
  ])("literal %s is blocked", async (raw, hostname, range) => {
    expect(await rejection(checkUrl(raw, { allowHosts: [], resolve: noDns }))).toEqual({
      code: "IMPORT_BLOCKED",
      status: 422,
      message: `host "${hostname}" points to a blocked address range (${range})`,
    });
  });

  test("localhost through the real resolver is blocked", async () => {
    const error = await rejection(checkUrl("http://localhost/", { allowHosts: [] }));
    expect(error).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: 'host "localhost" points to a blocked address range (loopback)' });
  });

  test.each(["file:///etc/passwd", "ftp://public.test/a", "gopher://public.test/", "data:text/plain,hello", "javascript:alert(1)", "ws://public.test/"])(
    "scheme of %s is blocked",
    async (raw) => {
      const error = await rejection(checkUrl(raw, guard));
      expect(error).toEqual({ code: "IMPORT_BLOCKED", status: 422, message: `scheme "${new URL(raw).protocol}" is not allowed; use http or https` });
    },
  );

  test.each(["not a url", "http://", "", "//public.test/x", "http://exa mple.test/"])("%p is not a valid URL", async (raw) => {
    expect(await rejection(checkUrl(raw, guard))).toEqual({ code: "VALIDATION_ERROR", status: 400, message: "the import URL is not a valid URL" });
  });

  test.each(["http://user:secret@public.test/", "http://user@public.test/", "http://:pw@public.test/"])("credentials in %s are refused", async (raw) => {
    expect(await rejection(checkUrl(raw, guard))).toEqual({ code: "VALIDATION_ERROR", status: 400, message: "the import URL must not contain credentials" });
  });

  test("an unknown or empty name is a validation error", async () => {
    const expected = (host: string) => ({ code: "VALIDATION_ERROR", status: 400, message: `could not resolve host "${host}"` });
    expect(await rejection(checkUrl("http://nowhere.test/", guard))).toEqual(expected("nowhere.test"));
    expect(await rejection(checkUrl("http://empty.test/", guard))).toEqual(expected("empty.test"));
  });

  describe("allowHosts", () => {
    const allow = (allowHosts: string[], raw: string) => checkUrl(raw, { allowHosts, resolve: fakeDns });

    test("an allowed name skips the address check but still returns its addresses for pinning", async () => {
      expect((await allow(["internal.test"], "http://internal.test:9000/x")).addresses).toEqual(["10.1.2.3"]);
      expect((await allow(["Internal.TEST"], "https://INTERNAL.test/x")).addresses).toEqual(["10.1.2.3"]);
    });

    test("host:port entries match only that port, default ports included", async () => {
      expect((await allow(["127.0.0.1:8080"], "http://127.0.0.1:8080/")).addresses).toEqual(["127.0.0.1"]);
      expect((await allow(["internal.test:80"], "http://internal.test/")).addresses).toEqual(["10.1.2.3"]);
      expect((await allow(["internal.test:443"], "https://internal.test/")).addresses).toEqual(["10.1.2.3"]);
      expect((await rejection(allow(["127.0.0.1:8080"], "http://127.0.0.1:8081/"))).code).toBe("IMPORT_BLOCKED");
      expect((await rejection(allow(["internal.test:80"], "https://internal.test/"))).code).toBe("IMPORT_BLOCKED");
    });

    test("IP entries are normalised like URL hosts", async () => {
      expect((await allow(["::1"], "http://[::1]:9/")).addresses).toEqual(["::1"]);
      expect((await allow(["[::1]:9"], "http://[0:0::1]:9/")).addresses).toEqual(["::1"]);
      expect((await allow(["0x7f000001"], "http://127.0.0.1/")).addresses).toEqual(["127.0.0.1"]);
      expect((await rejection(allow(["[::1]:9"], "http://[::1]:10/"))).code).toBe("IMPORT_BLOCKED");
    });

    test("an entry does not allow other hosts or subdomains", async () => {
      expect((await rejection(allow(["test", "vil.test", "evil.test.example"], "http://evil.test/"))).code).toBe("IMPORT_BLOCKED");
      expect((await rejection(allow(["internal.test"], "http://evil.test/"))).code).toBe("IMPORT_BLOCKED");
    });

    test("the scheme rule still applies to allowed hosts", async () => {
      expect((await rejection(allow(["internal.test"], "ftp://internal.test/"))).code).toBe("IMPORT_BLOCKED");
    });
  });
});
