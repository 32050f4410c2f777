/**
 * HTTP plumbing of the client: base URL, credentials (session cookie or vk_ token), the
 * envelope unwrapped into data or an ApiError. Only web-standard APIs (fetch, Headers), so it
 * runs the same in browsers, Bun and Node 20+.
 */
import { networkError, toApiError } from "./errors";

export interface TransportOptions {
  baseUrl: string;
  /** API token (`vk_...`), sent as `Authorization: Bearer`. */
  token?: string;
  /** A session cookie (`svc.session_token=...`) kept from an earlier sign-in, outside browsers. */
  cookie?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

const inBrowser = typeof (globalThis as { window?: unknown }).window !== "undefined";

export class Transport {
  readonly baseUrl: string;
  token: string | null;
  /** Outside browsers the client keeps the session cookie itself. */
  cookie: string | null = null;
  readonly fetchImpl: typeof fetch;

  constructor(opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.token = opts.token ?? null;
    this.cookie = opts.cookie ?? null;
    this.fetchImpl = opts.fetch ?? fetch.bind(globalThis);
  }

  url(path: string): string {
    return path.startsWith("http://") || path.startsWith("https://") ? path : `${this.baseUrl}${path}`;
  }

  headers(extra: HeadersInit = {}): Headers {
    const h = new Headers(extra);
    if (this.token) h.set("authorization", `Bearer ${this.token}`);
    if (this.cookie && !inBrowser) h.set("cookie", this.cookie);
    if (!inBrowser) h.set("origin", this.baseUrl);
    return h;
  }

  /** A raw request with credentials; the caller reads the Response. No answer at all is an ApiError NETWORK_ERROR. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const url = this.url(path);
    let res: Response;
    try {
      res = await this.fetchImpl(url, { ...init, headers: this.headers(init.headers), credentials: "include" });
    } catch (err) {
      throw networkError(err, url);
    }
    this.keepCookie(res);
    return res;
  }

  /** A raw request whose non-2xx answer is thrown as an ApiError (downloads, streams). */
  async fetchOk(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await this.fetch(path, init);
    if (!res.ok) throw await toApiError(res);
    return res;
  }

  /** A JSON call: the HTTP status and the unwrapped `data` (202 answers are data too). */
  async send<T>(method: string, path: string, body?: unknown, extraHeaders: HeadersInit = {}, signal?: AbortSignal): Promise<{ status: number; data: T }> {
    const headers = new Headers(extraHeaders);
    if (body !== undefined) headers.set("content-type", "application/json");
    const res = await this.fetchOk(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    const json = (await res.json()) as { ok?: boolean; data?: T };
    return { status: res.status, data: (json && json.ok === true ? json.data : json) as T };
  }

  /** A JSON call whose success envelope is unwrapped. */
  async call<T>(method: string, path: string, body?: unknown, extraHeaders: HeadersInit = {}): Promise<T> {
    return (await this.send<T>(method, path, body, extraHeaders)).data;
  }

  private keepCookie(res: Response): void {
    if (inBrowser) return;
    const cookies = typeof res.headers.getSetCookie === "function" ? res.headers.getSetCookie() : [];
    for (const c of cookies) {
      const pair = c.split(";")[0];
      if (!/session_token=/.test(pair)) continue;
      this.cookie = /session_token=$/.test(pair) || /max-age=0/i.test(c) ? null : pair;
    }
  }
}
