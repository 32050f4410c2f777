/**
 * The official TypeScript client of the HTTP interface, used by the web app, a CLI and the
 * tests. Works in browsers (cookies by the browser) and in Bun/Node (cookie kept here).
 */
import type { Account, CreatedToken, LedgerEntry, TokenInfo } from "../schemas/account";
import type { AdminConfig } from "../schemas/config";
import type { FileRecord } from "../schemas/file";
import { Transport, type TransportOptions } from "./transport";
import { uploadBlob, type UploadOptions } from "./upload";

export { ApiError } from "./errors";
export type { UploadOptions } from "./upload";

type Query = Record<string, string | number | undefined>;

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

  readonly config = {
    public: (keys?: string[]) => this.t.call<Record<string, unknown>>("GET", `/api/config/public${qs({ keys: keys?.join(",") })}`),
    flags: (keys?: string[]) => this.t.call<Record<string, unknown>>("GET", `/api/config/flags${qs({ keys: keys?.join(",") })}`),
    thresholds: (keys?: string[]) => this.t.call<Record<string, unknown>>("GET", `/api/config/thresholds${qs({ keys: keys?.join(",") })}`),
  };

  readonly admin = {
    config: () => this.t.call<AdminConfig>("GET", "/api/admin/config"),
    setConfig: (group: string, patch: Record<string, unknown>) => this.t.call<Record<string, unknown>>("PUT", `/api/admin/config/${encodeURIComponent(group)}`, patch),
    grantCredits: (b: { email: string; amount: number; reason: string }) => this.t.call<{ credits: number }>("POST", "/api/admin/credits", b),
    runRetention: (now?: string) => this.t.call<{ deletedFiles: number; freedBytes: number }>("POST", "/api/admin/system/retention", now ? { now } : {}),
  };

  health = () => this.t.call<{ status: string }>("GET", "/api/health");
  status = () => this.t.call<Record<string, unknown>>("GET", "/status");
}
