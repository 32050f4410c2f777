/**
 * Who is on the other end, behind a reverse proxy. TRUST_PROXY names the proxies whose
 * X-Forwarded-For, -Proto and -Host are believed: CIDRs (or single addresses, or the names
 * loopback, private, linklocal, uniquelocal), or a hop count. The client is found as Express's
 * proxy-addr finds it: walk from the connection's peer leftwards through X-Forwarded-For while
 * the hop at hand is trusted. A header sent by anyone else, or forged to the left of what a
 * trusted proxy appended, changes nothing.
 */
import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "ranges"; ranges: Range[]; text: string };

/** Named ranges, as proxy-addr names them. */
const NAMED: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["fc00::/7"],
};

function parseRange(entry: string): Range {
  if (entry.includes("/")) return ipaddr.parseCIDR(entry);
  const addr = ipaddr.parse(entry);
  return [addr, addr.kind() === "ipv4" ? 32 : 128];
}

/** TRUST_PROXY's value: empty or "false" trusts nobody; a number is a hop count; else a comma-separated list. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = (raw ?? "").trim();
  if (text === "" || text === "false" || text === "0") return { kind: "none" };
  if (/^\d+$/.test(text)) return { kind: "hops", hops: Number(text) };
  const entries = text.split(",").map((e) => e.trim()).filter(Boolean);
  const ranges: Range[] = [];
  for (const entry of entries) {
    try {
      for (const cidr of NAMED[entry] ?? [entry]) ranges.push(parseRange(cidr));
    } catch {
      throw new Error(`TRUST_PROXY: "${entry}" is not an address, a CIDR range or one of ${Object.keys(NAMED).join(", ")}`);
    }
  }
  return { kind: "ranges", ranges, text };
}

/** An address as ipaddr.js reads it, IPv4-mapped IPv6 (::ffff:10.0.0.1) as the IPv4 it is; null when it is none. */
function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.trim().replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : null;
}

function inRanges(address: string, ranges: Range[]): boolean {
  const addr = parsed(address);
  return addr !== null && ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/** Whether the hop at `index` (0: the connection's peer, 1: the address it forwarded for, ...) is a trusted proxy. */
function trusts(trust: TrustProxy, address: string, index: number): boolean {
  if (trust.kind === "none") return false;
  if (trust.kind === "hops") return index < trust.hops;
  return inRanges(address, trust.ranges);
}

/** The X-Forwarded-For hops, nearest first. */
function forwardedFor(headers: Headers): string[] {
  const header = headers.get("x-forwarded-for");
  if (!header) return [];
  return header
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
}

export interface Origin {
  /** The client's address: the nearest hop that is not a trusted proxy. */
  address: string;
  /** True when the original request came over HTTPS (said by a trusted proxy, or this connection's own scheme). */
  https: boolean;
  /** The Host the client asked for. */
  host: string;
}

/** The first value of a comma-separated header (a chain of proxies appends; the first is the client's). */
const firstOf = (value: string | null) => value?.split(",")[0]?.trim() || null;

/**
 * The request's origin as TRUST_PROXY lets it be told: `peer` is the connection's address. An
 * address X-Forwarded-For holds that is not an IP address ends the walk (what sent it is not
 * to be believed further), as does the first untrusted hop.
 */
export function originOf(request: Request, peer: string | null, trust: TrustProxy): Origin {
  const url = new URL(request.url);
  const own: Origin = { address: peer ?? "unknown", https: url.protocol === "https:", host: request.headers.get("host") ?? url.host };
  if (peer === null || !trusts(trust, peer, 0)) return own;
  const hops = [peer, ...forwardedFor(request.headers)];
  let i = 0;
  while (i < hops.length - 1 && trusts(trust, hops[i], i) && parsed(hops[i + 1]) !== null) i++;
  const proto = firstOf(request.headers.get("x-forwarded-proto"));
  const host = firstOf(request.headers.get("x-forwarded-host"));
  return {
    address: parsed(hops[i])?.toString() ?? hops[i],
    https: proto ? proto.toLowerCase() === "https" : own.https,
    host: host ?? own.host,
  };
}
