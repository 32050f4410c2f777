/**
 * Who is calling. S endpoints take a session cookie or `Authorization: Bearer vk_...` with the
 * `api` scope; token management and admin endpoints take a session cookie only. A credential
 * seen in the last second is answered from the CredentialCache (see there for revocation).
 */
import { fail } from "@vektor/shared/errors";
import { TOKEN_SCOPES, type TokenScope } from "@vektor/shared/schemas/vocab";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";
import type { TokenService } from "./tokens";
import type { Auth } from "./better-auth";
import type { CredentialCache } from "./credential-cache";

export type CallerKind = "api" | "session" | "admin";

export interface Caller {
  id: string;
  email: string;
  name: string;
  role: string;
  plan: "free" | "pro";
  via: "session" | "token";
  scopes: TokenScope[];
}

/** The session cookie's value (`svc.session_token`, `__Secure-` prefixed over HTTPS), or null. */
export function sessionCookie(request: Request): string | null {
  const cookie = request.headers.get("cookie");
  return cookie?.match(/(?:^|;\s*)[\w.-]*session_token=([^;]+)/)?.[1] ?? null;
}

/** The bearer credential of `Authorization`, or null when the header names another scheme. */
export function bearerToken(request: Request): string | null {
  const authz = request.headers.get("authorization");
  return authz && /^bearer\s/i.test(authz) ? authz.slice(7).trim() : null;
}

export class CallerResolver {
  /** One lookup per request, however many times a route asks. */
  private readonly seen = new WeakMap<Request, Promise<Caller>>();

  constructor(
    private readonly auth: Auth,
    private readonly tokens: TokenService,
    private readonly db: Db,
    private readonly cache: CredentialCache,
  ) {}

  require(request: Request, kind: CallerKind): Promise<Caller> {
    let found = this.seen.get(request);
    if (!found) {
      found = this.check(request, kind);
      this.seen.set(request, found);
    }
    return found;
  }

  private async check(request: Request, kind: CallerKind): Promise<Caller> {
    const caller = await this.resolve(request, kind);
    if (!caller) throw fail.unauthorized();
    if (kind === "admin" && caller.role !== "admin") throw fail.forbidden("Administrators only");
    if (caller.via === "token" && !caller.scopes.includes("api")) throw fail.forbidden("This token lacks the api scope");
    return caller;
  }

  /**
   * The caller of an endpoint open to anonymous and token callers alike (MCP): null without an
   * `Authorization` header; a header that is not a live token is refused (UNAUTHORIZED), never
   * taken for anonymous.
   */
  async optionalToken(request: Request): Promise<Caller | null> {
    if (!request.headers.has("authorization")) return null;
    const caller = await this.fromToken(request);
    if (!caller) throw fail.unauthorized();
    return caller;
  }

  private async resolve(request: Request, kind: CallerKind): Promise<Caller | null> {
    if (bearerToken(request) !== null) return kind === "api" ? this.fromToken(request) : null;
    const credential = sessionCookie(request);
    if (!credential) return null;
    return this.cache.caller(`c:${credential}`, async () => {
      const found = await this.auth.api.getSession({ headers: request.headers }).catch(() => null);
      if (!found) return null;
      const u = found.user as typeof found.user & { role?: string; plan?: string };
      const caller = { id: u.id, email: u.email, name: u.name, role: u.role ?? "user", plan: u.plan === "pro" ? "pro" : "free", via: "session", scopes: [...TOKEN_SCOPES] } satisfies Caller;
      return { caller, expiresAt: new Date(found.session.expiresAt).getTime() };
    });
  }

  private async fromToken(request: Request): Promise<Caller | null> {
    const token = bearerToken(request) ?? "";
    return this.cache.caller(`t:${token}`, async () => {
      const hit = await this.tokens.verify(token);
      const caller = hit && (await this.load(hit.userId, "token", hit.scopes));
      return caller ? { caller, expiresAt: hit.expiresAt?.getTime() ?? null } : null;
    });
  }

  private async load(userId: string, via: Caller["via"], scopes: TokenScope[]): Promise<Caller | null> {
    const [row] = await this.db.select().from(user).where(eq(user.id, userId));
    if (!row) return null;
    return { id: row.id, email: row.email, name: row.name, role: row.role, plan: row.plan === "pro" ? "pro" : "free", via, scopes };
  }
}
