/**
 * Every admin configuration key (contract section 3): group, type and range as a schema,
 * default, and where it may be shown publicly. Data, not code: a new key is a new row.
 */
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
  secret?: boolean;
}

const bool = () => Type.Boolean();
const int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });

export const CONFIG_KEYS = {
  "batch.enabled": { group: "batch_configs", schema: bool(), default: true, exposure: "flags", description: "Batches can be created" },
  "batch.max_files_free": { group: "batch_configs", schema: int(1, 10_000), default: 20, exposure: "thresholds", description: "Most files in one batch, free plan" },
  "batch.max_files_pro": { group: "batch_configs", schema: int(1, 10_000), default: 500, exposure: "thresholds", description: "Most files in one batch, pro plan" },
  "batch.max_size_mb_free": { group: "batch_configs", schema: int(1, 1_000_000), default: 200, exposure: "thresholds", description: "Largest total batch size in MB, free plan" },
  "batch.max_size_mb_pro": { group: "batch_configs", schema: int(1, 1_000_000), default: 5000, exposure: "thresholds", description: "Largest total batch size in MB, pro plan" },
  "batch.base_credits": { group: "batch_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", description: "Credits charged per batch" },
  "batch.per_file_credits": { group: "batch_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", description: "Credits charged per file in a batch" },
  "workflow.enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Workflows can run" },
  "workflow.max_steps": { group: "workflow_configs", schema: int(1, 1000), default: 25, exposure: "thresholds", description: "Most op.* steps in one workflow" },
  "workflow.base_credits": { group: "workflow_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", description: "Credits charged per run" },
  "workflow.per_step_credits": { group: "workflow_configs", schema: int(0, 1_000_000), default: 1, exposure: "thresholds", description: "Credits charged per op.* step" },
  "workflow.webhook_enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Webhook triggers start runs" },
  "workflow.schedule_enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Schedule triggers start runs" },
  "workflow.watch_enabled": { group: "workflow_configs", schema: bool(), default: true, exposure: "flags", description: "Watch triggers start runs" },
  "workflow.notify_email_enabled": { group: "workflow_configs", schema: bool(), default: false, exposure: "flags", description: "E-mail on run completion" },
  "workflow.approval_timeout_seconds_default": { group: "workflow_configs", schema: int(1, 30 * 86400), default: 86400, exposure: "thresholds", description: "Approval wait when a node sets none" },
  "credits.signup_grant": { group: "platform_configs", schema: int(0, 1_000_000), default: 100, exposure: "public", description: "Credits a new account receives" },
  "email.smtp_url": { group: "platform_configs", schema: Type.String({ maxLength: 2048 }), default: "", exposure: null, secret: true, description: "SMTP delivery URL for completion e-mails (secret): smtp:// or smtps://user:password@host:port; ?from=address sets the sender (default no-reply@ the PUBLIC_URL host)" },
  "upload.max_size_mb": { group: "platform_configs", schema: int(1, 1_000_000), default: 2048, exposure: "thresholds", description: "Largest upload in MB" },
  "import.max_size_mb": { group: "platform_configs", schema: int(1, 1_000_000), default: 200, exposure: "thresholds", description: "Largest URL import in MB" },
  "upload.multipart_threshold_mb": { group: "platform_configs", schema: int(5, 1_000_000), default: 64, exposure: "thresholds", description: "Uploads above this size use multipart" },
  "upload.part_size_mb": { group: "platform_configs", schema: int(5, 5000), default: 16, exposure: "thresholds", description: "Part size of multipart uploads in MB" },
  "net.allow_hosts": { group: "platform_configs", schema: Type.Array(Type.String({ minLength: 1, maxLength: 260 }), { maxItems: 100 }), default: [], exposure: null, description: "Hosts exempt from the private-address guard" },
  "processing.cloud_enabled": { group: "platform_configs", schema: bool(), default: true, exposure: "flags", description: "Server-side processing is offered" },
  "processing.browser_max_mb": { group: "platform_configs", schema: int(1, 1_000_000), default: 512, exposure: "thresholds", description: "Largest file processed in the browser" },
  "processing.max_concurrent_per_user": { group: "platform_configs", schema: int(1, 1000), default: 4, exposure: "thresholds", description: "Jobs of one user running at once, across all server processes" },
  "processing.max_concurrent": { group: "platform_configs", schema: int(0, 100_000), default: 0, exposure: "thresholds", description: "Jobs running at once across all server processes (0: as many as there are workers)" },
  "retention.upload_hours": { group: "platform_configs", schema: int(1, 24 * 365), default: 24, exposure: "public", description: "Hours uploads are kept" },
  "retention.output_hours": { group: "platform_configs", schema: int(1, 24 * 365), default: 72, exposure: "public", description: "Hours outputs are kept" },
  "ratelimit.per_minute": { group: "platform_configs", schema: int(1, 1_000_000), default: 600, exposure: "thresholds", description: "Requests per minute per caller" },
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
