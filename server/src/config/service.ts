/**
 * Effective configuration: defaults overlaid with admin overrides from the `setting` table,
 * read from memory. A change applies at once in the process that made it and, through
 * Invalidations (NOTIFY), as soon as it commits in every other process on the same PostgreSQL;
 * the copy is also reread at least every CACHE_MS, so a lost notification costs at most that.
 * Concurrent requests share one reread (lib/cache.ts; Invalidations' topic `config`). Secret
 * keys (the SMTP URL, which holds a password) are stored sealed with a key derived from the
 * server secret, and opened only into memory.
 */
import { fail } from "@vektor/shared/errors";
import { Value } from "@sinclair/typebox/value";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Invalidations } from "../db/invalidations";
import { Cache } from "../lib/cache";
import { auditLog, setting } from "../db/schema";
import { newId } from "../lib/ids";
import { seal, unseal } from "../lib/secret-box";
import { settingLabel, settingProblem, settingRange } from "@vektor/shared/settings";
import { CONFIG_GROUPS, CONFIG_KEYS, configKey, settingInfo, type ConfigGroup, type ConfigKeyName, type ConfigValues, type Exposure } from "./keys";

const CACHE_MS = 1000;

export class ConfigService {
  private readonly copy = new Cache<ConfigValues>(CACHE_MS);

  constructor(
    private readonly db: Db,
    private readonly changes?: Invalidations,
    /** Seals the values of secret keys at rest (boot.ts); without it (unit tests) they are stored as they are. */
    private readonly secretKey?: CryptoKey,
  ) {
    changes?.on("config", () => this.invalidate());
  }

  all(): Promise<ConfigValues> {
    return this.copy.get("", () => this.load());
  }

  private async load(): Promise<ConfigValues> {
    const values = Object.fromEntries(Object.entries(CONFIG_KEYS).map(([k, d]) => [k, structuredClone(d.default)])) as Record<string, unknown>;
    for (const row of await this.db.select().from(setting)) {
      if (configKey(row.key)) values[row.key] = await this.open(row.key, row.value);
    }
    return values as ConfigValues;
  }

  /** The value from memory when the copy is fresh, or undefined (then `get` it). */
  peek<K extends ConfigKeyName>(key: K): ConfigValues[K] | undefined {
    return this.copy.peek()?.[key];
  }

  async get<K extends ConfigKeyName>(key: K): Promise<ConfigValues[K]> {
    return (await this.all())[key];
  }

  /** The admin view: every group with every key. Secrets are included (admins only). */
  async grouped(): Promise<Record<ConfigGroup, Record<string, unknown>>> {
    const values = await this.all();
    const out = Object.fromEntries(CONFIG_GROUPS.map((g) => [g, {}])) as Record<ConfigGroup, Record<string, unknown>>;
    for (const [key, def] of Object.entries(CONFIG_KEYS)) out[def.group][key] = values[key as ConfigKeyName];
    return out;
  }

  /** Keys shown by one public endpoint, optionally narrowed by `keys` (unknown or hidden names are left out). */
  async exposed(exposure: Exclude<Exposure, null>, keys: string[] | null): Promise<Record<string, unknown>> {
    const values = await this.all();
    const out: Record<string, unknown> = {};
    for (const [key, def] of Object.entries(CONFIG_KEYS)) {
      if (def.exposure !== exposure || (keys && !keys.includes(key))) continue;
      out[key] = values[key as ConfigKeyName];
    }
    return out;
  }

  /** Validate a partial update of one group (all or nothing), store it, and audit it. */
  async update(group: string, patch: Record<string, unknown>, actorId: string): Promise<Record<string, unknown>> {
    if (!(CONFIG_GROUPS as readonly string[]).includes(group)) throw fail.validation(`Unknown configuration group "${group}"; expected one of ${CONFIG_GROUPS.join(", ")}`);
    const entries = Object.entries(patch);
    if (entries.length === 0) throw fail.validation("The body must set at least one key");
    for (const [key, value] of entries) {
      const def = configKey(key);
      if (!def || def.group !== group) throw fail.validation(`Unknown key "${key}" in group ${group}`);
      if (!Value.Check(def.schema, value)) {
        const info = settingInfo(key, def);
        throw fail.validation(settingProblem(info, value) ?? `${settingLabel(info)} must be ${settingRange(info)}.`);
      }
    }
    const before = await this.all();
    const stored = await Promise.all(entries.map(async ([key, value]) => [key, await this.stored(key, value)] as const));
    await this.db.transaction(async (tx) => {
      for (const [key, value] of stored) {
        await tx
          .insert(setting)
          .values({ group, key, value, updatedBy: actorId })
          .onConflictDoUpdate({ target: [setting.group, setting.key], set: { value, updatedAt: new Date(), updatedBy: actorId } });
      }
      const detail = Object.fromEntries(entries.map(([k, v]) => [k, configKey(k)!.secret ? { from: "***", to: "***" } : { from: before[k as ConfigKeyName], to: v }]));
      await tx.insert(auditLog).values({ id: newId("aud"), actorId, action: "config.update", target: group, detail });
    });
    if (this.changes) await this.changes.publish("config");
    else this.invalidate();
    return (await this.grouped())[group as ConfigGroup];
  }

  /** A stored value as the service uses it: a sealed secret opened (one that no longer opens reads as the default). */
  private async open(key: string, stored: unknown): Promise<unknown> {
    if (!isSealed(stored)) return stored;
    const plain = this.secretKey ? await unseal(this.secretKey, stored.sealed, sealContext(key)) : null;
    return plain ?? structuredClone(configKey(key)!.default);
  }

  /** What is written for `value`: a non-empty secret sealed. */
  private async stored(key: string, value: unknown): Promise<unknown> {
    if (!configKey(key)?.secret || !this.secretKey || typeof value !== "string" || value === "") return value;
    return { sealed: await seal(this.secretKey, value, sealContext(key)) };
  }

  /**
   * Seals secret values still stored as they were typed (rows from before sealing). Run at start,
   * after the migrations; idempotent, and a row changed meanwhile is left to its writer.
   */
  async sealPlaintextSecrets(): Promise<number> {
    let sealed = 0;
    for (const row of await this.db.select().from(setting)) {
      if (!configKey(row.key)?.secret || typeof row.value !== "string" || row.value === "") continue;
      const value = await this.stored(row.key, row.value);
      const done = await this.db
        .update(setting)
        .set({ value })
        .where(and(eq(setting.group, row.group), eq(setting.key, row.key), sql`${setting.value} = ${JSON.stringify(row.value)}::jsonb`))
        .returning({ key: setting.key });
      sealed += done.length;
    }
    if (sealed) this.invalidate();
    return sealed;
  }

  /** Forget the copy so the next read sees the database. */
  invalidate(): void {
    this.copy.invalidate();
  }
}

/** A sealed secret as stored in `setting.value`. */
function isSealed(v: unknown): v is { sealed: string } {
  return typeof v === "object" && v !== null && typeof (v as { sealed?: unknown }).sealed === "string";
}

/** Binds a sealed value to its key, so it opens on no other row. */
const sealContext = (key: string) => `setting:${key}`;

export async function auditRows(db: Db, action: string) {
  return db.select().from(auditLog).where(eq(auditLog.action, action));
}
