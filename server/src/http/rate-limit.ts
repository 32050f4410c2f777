/**
 * Fixed-window rate limiting per caller (session cookie, bearer token, or client address),
 * `ratelimit.per_minute` requests a minute. In memory, per process: the limit protects each
 * process, which is what matters for overload.
 */
export class RateLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  /** Seconds until the caller may retry, or 0 when the request is allowed. */
  hit(key: string, perMinute: number, now = Date.now()): number {
    const window = Math.floor(now / 60_000) * 60_000;
    if (window !== this.windowStart) {
      this.windowStart = window;
      this.counts.clear();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count <= perMinute) return 0;
    return Math.max(1, Math.ceil((window + 60_000 - now) / 1000));
  }
}

/** Who is calling, without a database query: the credential string itself, or the address. */
export function callerKey(request: Request, ip: string | null): string {
  const authz = request.headers.get("authorization");
  if (authz?.startsWith("Bearer ")) return `t:${authz.slice(7, 80)}`;
  const cookie = request.headers.get("cookie");
  const session = cookie?.match(/(?:^|;\s*)[\w.-]*session_token=([^;]+)/);
  if (session) return `c:${session[1].slice(0, 80)}`;
  return `ip:${ip ?? "unknown"}`;
}
