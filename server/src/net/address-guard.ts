/**
 * Server-side request forgery guard for `import-url` (contract section 5): decides whether a URL
 * may be fetched by the server, and which addresses it may connect to. The fetch itself lives in
 * `safe-fetch.ts`, which connects to exactly the addresses returned here (no second lookup).
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { ServiceError } from "@vektor/shared/errors";

/** Turns a hostname into IP address strings. Injectable so tests never touch real DNS. */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface GuardOptions {
  /** Hostnames or IP literals, optionally `:port`, that skip the address check (on-premise use). */
  allowHosts: string[];
  resolve?: Resolver;
}

const ALLOWED_SCHEMES = new Set(["http:", "https:"]);
// Every allocated global unicast IPv6 address is in 2000::/3; anything else ipaddr.js calls
// "unicast" is unassigned space we have no reason to reach.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

const defaultResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

/**
 * Pure decision for one IP: allowed only for global unicast; IPv4-mapped/compatible IPv6 judged
 * as the embedded IPv4. `range` is ipaddr.js's range name (or "invalid" / "nonGlobal").
 */
export function classifyAddress(ip: string): { allowed: boolean; range: string } {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return verdict(ipaddr.IPv4.parse(bare).range());
  if (!ipaddr.IPv6.isValid(bare)) return { allowed: false, range: "invalid" };
  const v6 = ipaddr.IPv6.parse(bare);
  const embedded = embeddedIPv4(v6);
  if (embedded) return verdict(embedded.range());
  const range = v6.range();
  if (range === "unicast" && !v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, range: "nonGlobal" };
  return verdict(range);
}

function verdict(range: string): { allowed: boolean; range: string } {
  return { allowed: range === "unicast", range };
}

/** ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible) both reach the IPv4 host. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const compatible = v6.range() === "unicast" && v6.parts.slice(0, 6).every((p) => p === 0);
  return compatible ? new ipaddr.IPv4([v6.parts[6] >> 8, v6.parts[6] & 255, v6.parts[7] >> 8, v6.parts[7] & 255]) : null;
}

/** True when a WHATWG `URL.hostname` is an address rather than a name (the parser has already
 * normalised 0x7f000001, 2130706433 and friends to dotted decimal). */
export function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || ipaddr.IPv4.isValidFourPartDecimal(hostname);
}

/**
 * Parses and checks a URL: scheme http/https only; host literal or every resolved address must
 * be allowed, unless the host (or host:port) is in allowHosts. Returns the URL and the addresses
 * it is safe to connect to. Throws ServiceError.
 *
 * URLs with credentials (`user:pass@host`) are refused with VALIDATION_ERROR: the URL is stored
 * with the job, so the secret would leak into records and logs, and `trusted.com@evil.com` is a
 * classic way to disguise the real host from a human reviewer.
 */
export async function checkUrl(raw: string, opts: GuardOptions): Promise<{ url: URL; addresses: string[] }> {
  const url = parseUrl(raw);
  const hostname = url.hostname.replace(/\.$/, "");
  const addresses = isIpLiteral(hostname) ? [hostname.replace(/^\[|\]$/g, "")] : await resolveHost(hostname, opts.resolve ?? defaultResolver);
  if (isAllowedHost(url, opts.allowHosts)) return { url, addresses };
  for (const address of addresses) {
    const { allowed, range } = classifyAddress(address);
    // The range name is enough for the user; the internal address itself is not echoed back.
    if (!allowed) throw new ServiceError("IMPORT_BLOCKED", `host "${hostname}" points to a blocked address range (${range})`);
  }
  return { url, addresses };
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "the import URL is not a valid URL");
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) throw new ServiceError("IMPORT_BLOCKED", `scheme "${url.protocol}" is not allowed; use http or https`);
  if (url.username || url.password) throw new ServiceError("VALIDATION_ERROR", "the import URL must not contain credentials");
  if (!url.hostname) throw new ServiceError("VALIDATION_ERROR", "the import URL has no host");
  return url;
}

async function resolveHost(hostname: string, resolve: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    throw new ServiceError("VALIDATION_ERROR", `could not resolve host "${hostname}"`);
  }
  if (addresses.length === 0) throw new ServiceError("VALIDATION_ERROR", `could not resolve host "${hostname}"`);
  return addresses;
}

function isAllowedHost(url: URL, allowHosts: string[]): boolean {
  const host = url.hostname.replace(/\.$/, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowHosts.some((entry) => {
    const allowed = parseAllowEntry(entry);
    return allowed.host === host && (allowed.port === null || allowed.port === port);
  });
}

/** Normalises an allowHosts entry the same way URL hosts are normalised, so "LOCALHOST",
 * "[::1]:8080", "::1" and "0x7f000001" compare equal to what the URL parser produces. */
function parseAllowEntry(entry: string): { host: string; port: string | null } {
  const trimmed = entry.trim();
  // A bare IPv6 literal has colons but no port; the regex below would misread its last group.
  const match = ipaddr.IPv6.isValid(trimmed) ? [trimmed, `[${trimmed}]`, undefined] : /^(.+?)(?::(\d{1,5}))?$/.exec(trimmed);
  if (!match) throw new Error(`invalid allowHosts entry "${entry}"`);
  try {
    return { host: new URL(`http://${match[1]}`).hostname.replace(/\.$/, ""), port: match[2] ?? null };
  } catch {
    throw new Error(`invalid allowHosts entry "${entry}"`);
  }
}
