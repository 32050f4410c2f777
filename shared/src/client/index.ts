/**
 * The official TypeScript client of the HTTP interface, used by the web app, a CLI and the
 * tests. Works in browsers (cookies by the browser) and in Bun/Node (cookie kept here).
 */
import type { Account, CreatedToken, LedgerEntry, TokenInfo } from "../schemas/account";
import type { AdminConfig } from "../schemas/config";
import type { FileRecord } from "../schemas/file";
import type { Approval, CatalogNode, Run, RunDetail, RunStatus, Template, ValidationResult, Workflow, WorkflowEstimate, WorkflowVersion } from "../schemas/workflow";
import type { DispatchResult, PutTriggerBody, Trigger } from "../schemas/trigger";
import { toApiError } from "./errors";
import { Transport, type TransportOptions } from "./transport";
import { uploadBlob, type UploadOptions } from "./upload";

export { ApiError } from "./errors";
export type { UploadOptions } from "./upload";

type Query = Record<string, string | number | undefined>;

const enc = encodeURIComponent;

/**
 * The webhook signature of the spec ("Authentication"): `sha256=` + hex HMAC-SHA-256 of
 * "<timestamp>.<raw body>" keyed with the trigger secret. Inbound hooks and outbound
 * notifications use the same scheme; a receiver can call this to check one.
 */
export async function signWebhook(secret: string, timestamp: number | string, rawBody: string | Uint8Array): Promise<string> {
  const te = new TextEncoder();
  const body = typeof rawBody === "string" ? te.encode(rawBody) : rawBody;
  const prefix = te.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  const key = await crypto.subtle.importKey("raw", te.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function qs(q: Query): string {
  const entries = Object.entries(q).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : "";
}

export class VektorClient {
  readonly t: Transport;

  constructor(opts: TransportOptions) {
    this.t = new Transport(opts);
  }

  /** Another client on the same server with an API token instead of the session. */
  withToken(token: string): VektorClient {
    return new VektorClient({ baseUrl: this.t.baseUrl, token });
  }

  readonly auth = {
    signUp: (b: { name: string; email: string; password: string }) => this.t.call<{ user: { id: string; email: string } }>("POST", "/api/auth/sign-up/email", b),
    signIn: (b: { email: string; password: string }) => this.t.call<{ user: { id: string; email: string } }>("POST", "/api/auth/sign-in/email", b),
    signOut: () => this.t.call<{ success: boolean }>("POST", "/api/auth/sign-out", {}),
  };

  account = () => this.t.call<Account>("GET", "/api/account");
  credits = (limit?: number) => this.t.call<LedgerEntry[]>("GET", `/api/account/credits${qs({ limit })}`);

  readonly tokens = {
    create: (b: { name: string; scopes?: ("api" | "mcp:write")[]; expiresInDays?: number }) => this.t.call<CreatedToken>("POST", "/api/tokens", b),
    list: () => this.t.call<TokenInfo[]>("GET", "/api/tokens"),
    revoke: (id: string) => this.t.call<{ id: string; revoked: boolean }>("DELETE", `/api/tokens/${encodeURIComponent(id)}`),
  };

  readonly files = {
    list: (q: { limit?: number; cursor?: string } = {}) => this.t.call<{ items: FileRecord[]; nextCursor: string | null }>("GET", `/api/files${qs(q)}`),
    get: (fileId: string) => this.t.call<FileRecord>("GET", `/api/files/${encodeURIComponent(fileId)}`),
    delete: (fileId: string) => this.t.call<{ fileId: string; deleted: boolean }>("DELETE", `/api/files/${encodeURIComponent(fileId)}`),
    confirm: (fileId: string) => this.t.call<FileRecord & { jobId?: string }>("POST", "/api/files/confirm", { fileId }),
    presignUpload: <T = unknown>(b: Record<string, unknown>) => this.t.call<T>("POST", "/api/files/presign-upload", b),
    presignDownload: (fileId: string) => this.t.call<{ url: string; expiresAt: string }>("POST", "/api/files/presign-download", { fileId }),
    importUrl: (b: { url: string; filename?: string; mime?: string; jobType?: string; createJob?: boolean; params?: Record<string, unknown> }) => this.t.call<FileRecord>("POST", "/api/files/import-url", b),
    /** Upload a Blob (File, or Bun.file(path)) with presign, PUT(s) and confirm. */
    upload: (blob: Blob, opts: UploadOptions) => uploadBlob(this.t, blob, opts),
    /** The raw download Response (streamed); `range` as "bytes=0-99". */
    download: (fileId: string, opts: { range?: string; signal?: AbortSignal } = {}) =>
      this.t.fetch(`/api/files/download/${encodeURIComponent(fileId)}`, { headers: opts.range ? { range: opts.range } : {}, signal: opts.signal }),
  };

  readonly workflows = {
    validate: (graphJson: string) => this.t.call<ValidationResult>("POST", "/api/workflows/validate", { graphJson }),
    catalog: () => this.t.call<CatalogNode[]>("GET", "/api/workflows/catalog"),
    list: (q: { limit?: number; cursor?: string } = {}) => this.t.call<{ items: Workflow[]; nextCursor: string | null }>("GET", `/api/workflows${qs(q)}`),
    create: (b: { name: string; graphJson: string; paramsJson?: string }) => this.t.call<Workflow>("POST", "/api/workflows", b),
    get: (id: string) => this.t.call<Workflow>("GET", `/api/workflows/${enc(id)}`),
    update: (id: string, b: { name?: string; graphJson?: string; paramsJson?: string | null }) => this.t.call<Workflow>("PUT", `/api/workflows/${enc(id)}`, b),
    delete: (id: string) => this.t.call<{ id: string; deleted: boolean }>("DELETE", `/api/workflows/${enc(id)}`),
    estimate: (id: string) => this.t.call<WorkflowEstimate>("POST", `/api/workflows/${enc(id)}/estimate`, {}),
    versions: (id: string) => this.t.call<WorkflowVersion[]>("GET", `/api/workflows/${enc(id)}/versions`),
    restore: (id: string, versionId: string) => this.t.call<Workflow>("POST", `/api/workflows/${enc(id)}/versions/${enc(versionId)}/restore`, {}),
    run: (id: string, fileIds: string[]) => this.t.call<{ runId: string; credits: number }>("POST", `/api/workflows/${enc(id)}/run`, { fileIds }),
    runs: (id: string, q: { limit?: number; cursor?: string } = {}) => this.t.call<{ items: Run[]; nextCursor: string | null }>("GET", `/api/workflows/${enc(id)}/runs${qs(q)}`),
    templates: {
      list: () => this.t.call<Template[]>("GET", "/api/workflows/templates"),
      create: (b: { name: string; description?: string; graphJson: string; paramsJson?: string }) => this.t.call<Template>("POST", "/api/workflows/templates", b),
      delete: (id: string) => this.t.call<{ id: string; deleted: boolean }>("DELETE", `/api/workflows/templates/${enc(id)}`),
    },
    triggers: {
      list: (id: string) => this.t.call<Trigger[]>("GET", `/api/workflows/${enc(id)}/triggers`),
      /** Creates or replaces the trigger of `type`; the answer's secret is shown only here. */
      put: (id: string, b: PutTriggerBody) => this.t.call<{ id: string; secret: string }>("PUT", `/api/workflows/${enc(id)}/triggers`, b),
      delete: (id: string, triggerId: string) => this.t.call<{ id: string; deleted: boolean }>("DELETE", `/api/workflows/${enc(id)}/triggers/${enc(triggerId)}`),
    },
    /**
     * Calls the workflow's hook as a third party would. With `signWith` (the webhook trigger's
     * secret) the request is signed (X-Service-Timestamp, default now, and X-Service-Signature);
     * without it, it is the legacy form, whose body carries `secret` itself.
     */
    hook: async (id: string, body: { fileIds?: string[]; secret?: string }, opts: { signWith?: string; timestamp?: number } = {}) => {
      const raw = JSON.stringify(body);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (opts.signWith !== undefined) {
        const ts = opts.timestamp ?? Math.floor(Date.now() / 1000);
        headers["x-service-timestamp"] = String(ts);
        headers["x-service-signature"] = await signWebhook(opts.signWith, ts, raw);
      }
      const res = await this.t.fetch(`/api/workflows/${enc(id)}/hook`, { method: "POST", headers, body: raw });
      if (!res.ok) throw await toApiError(res);
      return ((await res.json()) as { data: { runId: string; credits: number } }).data;
    },
    runDetail: (runId: string) => this.t.call<RunDetail>("GET", `/api/workflows/runs/${enc(runId)}`),
    retry: (runId: string) => this.t.call<{ runId: string; credits: number }>("POST", `/api/workflows/runs/${enc(runId)}/retry`, {}),
    replay: (runId: string) => this.t.call<{ runId: string; credits: number; replayOf: string }>("POST", `/api/workflows/runs/${enc(runId)}/replay`, {}),
    cancel: (runId: string) => this.t.call<{ runId: string; status: "cancelled"; refundedCredits: number }>("POST", `/api/workflows/runs/${enc(runId)}/cancel`, {}),
    approve: (runId: string, b: { decision: "approved" | "rejected"; note?: string; nodeId?: string }) => this.t.call<Approval>("POST", `/api/workflows/runs/${enc(runId)}/approve`, b),
    /** Polls the run until its status is one of `until` (default: a terminal one) or `timeoutMs` passes; returns the last detail. */
    waitFor: async (runId: string, opts: { until?: RunStatus[]; timeoutMs?: number } = {}): Promise<RunDetail> => {
      const until = new Set<string>(opts.until ?? ["succeeded", "failed", "cancelled"]);
      const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
      for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
        const detail = await this.workflows.runDetail(runId);
        if (until.has(detail.run.status) || Date.now() >= deadline) return detail;
        await new Promise((r) => setTimeout(r, delay));
      }
    },
  };

  readonly config = {
    public: (keys?: string[]) => this.t.call<Record<string, unknown>>("GET", `/api/config/public${qs({ keys: keys?.join(",") })}`),
    flags: (keys?: string[]) => this.t.call<Record<string, unknown>>("GET", `/api/config/flags${qs({ keys: keys?.join(",") })}`),
    thresholds: (keys?: string[]) => this.t.call<Record<string, unknown>>("GET", `/api/config/thresholds${qs({ keys: keys?.join(",") })}`),
  };

  readonly admin = {
    config: () => this.t.call<AdminConfig>("GET", "/api/admin/config"),
    setConfig: (group: string, patch: Record<string, unknown>) => this.t.call<Record<string, unknown>>("PUT", `/api/admin/config/${encodeURIComponent(group)}`, patch),
    grantCredits: (b: { email: string; amount: number; reason: string }) => this.t.call<{ credits: number }>("POST", "/api/admin/credits", b),
    dispatchSchedules: (now?: string) => this.t.call<DispatchResult>("POST", "/api/admin/system/dispatch-schedules", now ? { now } : {}),
    runRetention: (now?: string) => this.t.call<{ deletedFiles: number; freedBytes: number }>("POST", "/api/admin/system/retention", now ? { now } : {}),
  };

  health = () => this.t.call<{ status: string }>("GET", "/api/health");
  status = () => this.t.call<Record<string, unknown>>("GET", "/status");
}
