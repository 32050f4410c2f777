/**
 * Who is calling. S endpoints take a session cookie or `Authorization: Bearer vk_...` with the
 * `api` scope; token management and admin endpoints take a session cookie only.
 */
import { fail } from "@vektor/shared/errors";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { user } from "../db/schema";
import type { TokenService } from "../modules/tokens/service";
import type { Auth } from "./better-auth";

export type CallerKind = "api" | "session" | "admin";

export interface Caller {
  id: string;
  email: string;
  name: string;
  role: string;
  plan: "free" | "pro";
  via: "session" | "token";
  scopes: string[];
}

export class CallerResolver {
  /** One lookup per request, however many times a route asks. */
  private readonly seen = new WeakMap<Request, Promise<Caller>>();

  constructor(
    private readonly auth: Auth,
    private readonly tokens: TokenService,
    private readonly db: Db,
  ) {}

  /**
   * Route option that authenticates in the transform phase, before body validation, so an
   * anonymous caller always gets 401 rather than a validation error.
   */
  guard(kind: CallerKind) {
    return {
      transform: async ({ request }: { request: Request }) => {
        await this.require(request, kind);
      },
    };
  }

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

  /** The caller for an endpoint open to both anonymous and token callers (MCP). */
  async optionalToken(request: Request): Promise<Caller | null> {
    return this.fromToken(request);
  }

  private async resolve(request: Request, kind: CallerKind): Promise<Caller | null> {
    const authz = request.headers.get("authorization");
    if (authz?.toLowerCase().startsWith("bearer ")) return kind === "api" ? this.fromToken(request) : null;
    const found = await this.auth.api.getSession({ headers: request.headers }).catch(() => null);
    if (!found) return null;
    return this.load(found.user.id, "session", ["api", "mcp:write"]);
  }

  private async fromToken(request: Request): Promise<Caller | null> {
    const authz = request.headers.get("authorization") ?? "";
    const token = authz.replace(/^bearer\s+/i, "").trim();
    const hit = await this.tokens.verify(token);
    return hit ? this.load(hit.userId, "token", hit.scopes) : null;
  }

  private async load(userId: string, via: Caller["via"], scopes: string[]): Promise<Caller | null> {
    const [row] = await this.db.select().from(user).where(eq(user.id, userId));
    if (!row) return null;
    return { id: row.id, email: row.email, name: row.name, role: row.role, plan: row.plan === "pro" ? "pro" : "free", via, scopes };
  }
}
