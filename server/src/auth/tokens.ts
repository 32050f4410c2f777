/**
 * API tokens: `vk_` + 40 base62 characters, shown once; only the sha256 is stored. A token
 * carries scopes (TOKEN_SCOPES in shared): `api` (the S endpoints) and `mcp:write` (MCP write tools).
 */
import { fail, ServiceError } from "@vektor/shared/errors";
import { isTokenScope, TOKEN_SCOPES, type TokenScope } from "@vektor/shared/schemas/vocab";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Invalidations } from "../db/invalidations";
import { apiToken } from "../db/schema";
import { newId, randomBase62 } from "../lib/ids";

const MAX_TOKENS_PER_USER = 100;

export function hashToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

function publicView(row: typeof apiToken.$inferSelect) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

export class TokenService {
  /** `changes` hears of revocations, so cached callers of the token are dropped in every process. */
  constructor(
    private readonly db: Db,
    private readonly changes?: Invalidations,
  ) {}

  async create(userId: string, input: { name: string; scopes?: string[]; expiresInDays?: number }) {
    const asked = [...new Set(input.scopes ?? ["api"])];
    const bad = asked.filter((s) => !isTokenScope(s));
    if (bad.length) throw fail.validation(`Unknown scope ${bad.join(", ")}; expected ${TOKEN_SCOPES.join(", ")}`);
    const scopes = asked.filter(isTokenScope);
    const existing = await this.db.select({ id: apiToken.id }).from(apiToken).where(and(eq(apiToken.userId, userId), isNull(apiToken.revokedAt)));
    if (existing.length >= MAX_TOKENS_PER_USER) throw new ServiceError("LIMIT_EXCEEDED", `At most ${MAX_TOKENS_PER_USER} active tokens`);
    const token = `vk_${randomBase62(40)}`;
    const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
    const [row] = await this.db
      .insert(apiToken)
      .values({ id: newId("tok"), userId, name: input.name, tokenHash: hashToken(token), prefix: token.slice(0, 7), last4: token.slice(-4), scopes, expiresAt })
      .returning();
    return { ...publicView(row), token };
  }

  async list(userId: string) {
    const rows = await this.db
      .select()
      .from(apiToken)
      .where(and(eq(apiToken.userId, userId), isNull(apiToken.revokedAt)))
      .orderBy(desc(apiToken.createdAt));
    return rows.map(publicView);
  }

  async revoke(userId: string, id: string) {
    const rows = await this.db
      .update(apiToken)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiToken.id, id), eq(apiToken.userId, userId), isNull(apiToken.revokedAt)))
      .returning({ id: apiToken.id });
    if (rows.length === 0) throw fail.notFound("Token");
    await this.changes?.publish("user", userId);
    return { id, revoked: true };
  }

  /** The owner and scopes of a live token, or null. Marks it used (at most once a minute). */
  async verify(token: string): Promise<{ userId: string; scopes: TokenScope[]; tokenId: string; expiresAt: Date | null } | null> {
    if (!/^vk_[0-9A-Za-z]{32,}$/.test(token)) return null;
    const [row] = await this.db.select().from(apiToken).where(eq(apiToken.tokenHash, hashToken(token)));
    if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
      await this.db.update(apiToken).set({ lastUsedAt: new Date() }).where(eq(apiToken.id, row.id));
    }
    return { userId: row.userId, scopes: row.scopes, tokenId: row.id, expiresAt: row.expiresAt };
  }
}
