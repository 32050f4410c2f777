/**
 * The official TypeScript client of the HTTP interface (package `@vektor/client`), used by the
 * web app, the `vektor` CLI and the tests. Works in browsers (cookies by the browser), Bun and
 * Node 20+ (session cookie kept here, or an API token). Every answer is typed from the TypeBox
 * schemas the server validates its answers with; every failure is an ApiError with the
 * contract's code.
 */
import { accountApi, authApi, tokensApi } from "./account";
import { adminApi, configApi, systemApi } from "./admin";
import { batchesApi } from "./batches";
import { filesApi } from "./files";
import { jobsApi, toolsApi } from "./tools";
import { Transport, type TransportOptions } from "./transport";
import { workflowsApi } from "./workflows";

export { ApiError, type ApiErrorCode } from "./errors";
export { isBatchFinished } from "./batches";
export { filenameOf, type Download } from "./download";
export type { FollowOptions, ResumeOptions, StreamEvent } from "./sse";
export { isFinished, type RunToolOptions, type WaitOptions } from "./tools";
export type { TransportOptions } from "./transport";
export type { MultipartState, UploadOptions } from "./upload";
export type { ApprovalListQuery, RunListQuery, RunWaitOptions } from "./workflows";
export { signWebhook } from "./webhook";

export class VektorClient {
  /** The HTTP layer, for endpoints called by hand (`client.t.call(method, path, body)`). */
  readonly t: Transport;
  readonly auth: ReturnType<typeof authApi>;
  readonly me: ReturnType<typeof accountApi>;
  readonly tokens: ReturnType<typeof tokensApi>;
  readonly files: ReturnType<typeof filesApi>;
  readonly jobs: ReturnType<typeof jobsApi>;
  readonly tools: ReturnType<typeof toolsApi>;
  readonly batches: ReturnType<typeof batchesApi>;
  readonly workflows: ReturnType<typeof workflowsApi>;
  readonly config: ReturnType<typeof configApi>;
  readonly system: ReturnType<typeof systemApi>;
  readonly admin: ReturnType<typeof adminApi>;

  constructor(opts: TransportOptions) {
    this.t = new Transport(opts);
    this.auth = authApi(this.t);
    this.me = accountApi(this.t);
    this.tokens = tokensApi(this.t);
    this.files = filesApi(this.t);
    this.jobs = jobsApi(this.t);
    this.tools = toolsApi(this.t, this.jobs);
    this.batches = batchesApi(this.t);
    this.workflows = workflowsApi(this.t);
    this.config = configApi(this.t);
    this.system = systemApi(this.t);
    this.admin = adminApi(this.t);
  }

  /** Another client on the same server with an API token instead of the session. */
  withToken(token: string): VektorClient {
    return new VektorClient({ baseUrl: this.t.baseUrl, token, fetch: this.t.fetchImpl });
  }

  /** The signed-in account: id, e-mail, name, role, plan, credits. */
  account = () => this.me.get();
  /** The credit ledger, newest first. */
  credits = (limit?: number) => this.me.credits(limit);
  health = () => this.system.health();
  status = () => this.system.status();
}
