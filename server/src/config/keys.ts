/**
 * Every admin configuration key (contract section 3): group, type and range as a schema,
 * default, and where it may be shown publicly. Data, not code: a new key is a new row.
 */
import type { SettingInfo } from "@vektor/shared/schemas/config";
import { Type, type TSchema } from "@sinclair/typebox";

export const CONFIG_GROUPS = ["batch_configs", "workflow_configs", "platform_configs"] as const;
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];

/** Which public endpoint may show a key; `null` keeps it on the admin endpoints only. */
export type Exposure = "public" | "flags" | "thresholds" | null;

export interface ConfigKey {
  group: ConfigGroup;
  schema: TSchema;
  default: unknown;
  exposure: Exposure;
  description: string;
  /** What a number counts, shown beside its field and in its range ("files", "MB"). */
  unit?: string;
  secret?: boolean;
}

const bool = () => Type.Boolean();
const int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });

export const CONFIG_KEYS = {
  "batch.enabled": { group: "batch_configs", schema: bool(), default: true, exposure: "flags", description: "Batches can be created; when off, creating one is refused" },
  "batch.max_files_free": { group: "batch_configs", schema: int(1, 10_000), default: 20, exposure: "thresholds", unit: "files", description: "Most files in one batch, free plan" },
  "batch.max_files_pro": { group: "batch_configs", schema: int(1, 10_000), default: 500, exposure: "thresholds", unit: "files", description: "Most files in one batch, pro plan" },
  "batch.max_size_mb_free": { group: "batch_configs", schema: int(1, 1_000_000), default: 200, exposure: "thresholds", unit: "MB", description: "Largest total size of one batch, free plan" },
  "batch.max_size_mb_pro": { group: "batch_configs", schema: int(1, 1_000_000), default: 5000, exposure: "thresholds", unit: "MB", description: "Largest total size of one batch, pro plan" },
  "batch.base_credits": { group: "batch_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", unit: "credits", description: "Credits charged once for each batch, on top of the per-file charge" },
  "batch.per_file_credits": { group: "batch_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", unit: "credits", description: "Credits charged for each file of a batch" },
  "workflow.enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Workflows can run" },
  "workflow.max_steps": { group: "workflow_configs", schema: int(1, 1000), default: 25, exposure: "thresholds", unit: "steps", description: "Most tool (op.*) steps in one workflow" },
  "workflow.base_credits": { group: "workflow_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", unit: "credits", description: "Credits charged once for each workflow run, on top of the per-step charge" },
  "workflow.per_step_credits": { group: "workflow_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", unit: "credits", description: "Credits charged for each tool (op.*) step of a workflow run" },
  "workflow.webhook_enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Webhook triggers start runs" },
  "workflow.schedule_enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Schedule triggers start runs" },
  "workflow.watch_enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Watch triggers start runs" },
  "workflow.notify_email_enabled": { group: "workflow_configs", schema: bool(), default: false, exposure: "flags", description: "E-mail on run completion" },
  "workflow.approval_timeout_seconds_default": { group: "workflow_configs", schema: int(1, 30 * 86400), default: 86400, exposure: "thresholds", unit: "seconds", description: "How long an approval step waits when the workflow sets no time" },
  "credits.signup_grant": { group: "platform_configs", schema: int(0, 1_000_000), default: 100, exposure: "public", unit: "credits", description: "Credits a new account receives" },
  "email.smtp_url": { group: "platform_configs", schema: Type.String({ maxLength: 2048 }), default: "", exposure: null, secret: true, description: "SMTP delivery URL for completion e-mails (secret): smtp:// or smtps://user:password@host:port; ?from=address sets the sender (default no-reply@ the PUBLIC_URL host)" },
  "upload.max_size_mb": { group: "platform_configs", schema: int(1, 1_000_000), default: 2048, exposure: "thresholds", unit: "MB", description: "Largest upload" },
  "import.max_size_mb": { group: "platform_configs", schema: int(1, 1_000_000), default: 200, exposure: "thresholds", unit: "MB", description: "Largest file imported from a URL" },
  "upload.multipart_threshold_mb": { group: "platform_configs", schema: int(5, 1_000_000), default: 64, exposure: "thresholds", unit: "MB", description: "Uploads above this size are sent in parts" },
  "upload.part_size_mb": { group: "platform_configs", schema: int(5, 5000), default: 16, exposure: "thresholds", unit: "MB", description: "Size of each part of an upload sent in parts" },
  "net.allow_hosts": { group: "platform_configs", schema: Type.Array(Type.String({ minLength: 1, maxLength: 260 }), { maxItems: 100 }), default: [], exposure: null, description: "Hosts that URL imports and webhooks may reach even though they resolve to private addresses" },
  "processing.cloud_enabled": { group: "platform_configs", schema: bool(), default: true, exposure: "flags", description: "Server-side processing is offered" },
  "processing.browser_max_mb": { group: "platform_configs", schema: int(1, 1_000_000), default: 512, exposure: "thresholds", unit: "MB", description: "Largest file the web app runs on the device; bigger ones go to the server" },
  "processing.max_concurrent_per_user": { group: "platform_configs", schema: int(1, 1000), default: 4, exposure: "thresholds", unit: "jobs", description: "Jobs of one user running at once, across all server processes" },
  "processing.max_concurrent": { group: "platform_configs", schema: int(0, 100_000), default: 0, exposure: "thresholds", unit: "jobs", description: "Jobs running at once across all server processes (0: as many as there are workers)" },
  "retention.upload_hours": { group: "platform_configs", schema: int(1, 24 * 365), default: 24, exposure: "public", unit: "hours", description: "How long uploads are kept before retention deletes them" },
  "retention.output_hours": { group: "platform_configs", schema: int(1, 24 * 365), default: 72, exposure: "public", unit: "hours", description: "How long tool outputs are kept before retention deletes them" },
  "ratelimit.per_minute": { group: "platform_configs", schema: int(1, 1_000_000), default: 600, exposure: "thresholds", unit: "requests a minute", description: "Requests one caller (account, token or address) may make in a minute" },
} satisfies Record<string, ConfigKey>;

export type ConfigKeyName = keyof typeof CONFIG_KEYS;

/** Effective values, typed per key. */
export type ConfigValues = { [K in ConfigKeyName]: (typeof CONFIG_KEYS)[K]["default"] extends boolean ? boolean : (typeof CONFIG_KEYS)[K]["default"] extends number ? number : (typeof CONFIG_KEYS)[K]["default"] extends string ? string : string[] };

export const configKey = (name: string): ConfigKey | undefined => (CONFIG_KEYS as Record<string, ConfigKey>)[name];

/**
 * What code outside the config module reads of the admin configuration: one key at a time,
 * typed. ConfigService (modules/config) is the implementation the composition root passes in.
 */
export interface Settings {
  get<K extends ConfigKeyName>(key: K): Promise<ConfigValues[K]>;
}

/** A key as the admin screen describes it (GET /api/admin/config/keys): meaning, unit, kind and range. */
export function settingInfo(key: string, def: ConfigKey): SettingInfo {
  const schema = def.schema as TSchema & { type?: string; minimum?: number; maximum?: number; maxLength?: number; maxItems?: number; items?: { maxLength?: number } };
  const kind = KINDS[schema.type ?? ""] ?? "text";
  return {
    key,
    group: def.group,
    description: def.description,
    unit: def.unit ?? null,
    kind,
    minimum: schema.minimum ?? null,
    maximum: schema.maximum ?? null,
    maxLength: (kind === "list" ? schema.items?.maxLength : schema.maxLength) ?? null,
    maxItems: schema.maxItems ?? null,
    default: def.default,
    secret: def.secret === true,
  };
}

const KINDS: Record<string, SettingInfo["kind"]> = { boolean: "switch", integer: "number", string: "text", array: "list" };

/** Every key described, in the order of CONFIG_KEYS. */
export const settingInfos = (): SettingInfo[] => Object.entries(CONFIG_KEYS).map(([key, def]) => settingInfo(key, def));
