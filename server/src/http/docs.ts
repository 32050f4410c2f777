/**
 * Route documentation in one call: the OpenAPI `detail` (summary, tags, security) and the
 * `response` map with the success envelope plus one error envelope per status the route can
 * answer. Keeping it beside each route is what keeps /openapi.json complete.
 */
import { ERROR_CATALOG, type ErrorCode } from "@vektor/shared/errors";
import { ErrorEnvelope, Ok } from "@vektor/shared/schemas/envelope";
import type { TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { CallerResolver } from "../auth/caller";
import { JSON_BODY_LIMIT, readCappedBytes } from "./core";
import { Answered } from "./errors";

/** Where docJson leaves a route's body schema for the OpenAPI document (see http/openapi.ts). */
export const JSON_BODY_KEY = "x-json-body";

/**
 * Who may call a route: anyone (`public`), a session or an API token with the `api` scope
 * (`api`), a session only (`session`), an admin's session (`admin`), the holder of a presigned
 * URL (`signed`), anyone with or without an API token (`mcp`: anonymous callers get the
 * anonymous tools), or whoever holds a workflow's webhook secret (`webhook`).
 */
export type AuthKind = "public" | "api" | "session" | "admin" | "signed" | "mcp" | "webhook";

const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  public: [],
  api: [{ cookieAuth: [] }, { bearerAuth: [] }],
  session: [{ cookieAuth: [] }],
  admin: [{ cookieAuth: [] }],
  signed: [{ signedUrl: [] }],
  // The empty requirement: anonymous callers are welcome too.
  mcp: [{}, { bearerAuth: [] }],
  webhook: [{ webhookSignature: [] }, {}],
};

/** A route's OpenAPI `security` for its kind (for routes whose detail is written by hand). */
export const securityOf = (kind: AuthKind) => SECURITY[kind];

const AUTH_ERRORS: Record<AuthKind, ErrorCode[]> = {
  public: [],
  api: ["UNAUTHORIZED"],
  session: ["UNAUTHORIZED"],
  admin: ["UNAUTHORIZED", "FORBIDDEN"],
  signed: ["UNAUTHORIZED"],
  mcp: ["UNAUTHORIZED"],
  webhook: ["UNAUTHORIZED", "WEBHOOK_SIGNATURE_INVALID", "WEBHOOK_SIGNATURE_EXPIRED"],
};

export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthKind;
  /** Error codes this route can answer besides the auth ones, VALIDATION_ERROR and RATE_LIMITED. */
  errors?: ErrorCode[];
  /** Schema of `data` in the success envelope; omit for raw (streamed) answers. */
  data?: TSchema;
  /** Success status when not 200. */
  status?: number;
  /** Description of a raw success answer (downloads, streams). */
  raw?: { status?: number; description: string; contentType: string };
}

function errorResponses(codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    out[status] = { ...ErrorEnvelope, $id: undefined, description: `Error envelope; code: ${list.join(" | ")}` };
  }
  return out;
}

function describe(d: RouteDoc) {
  const codes = new Set<ErrorCode>(["VALIDATION_ERROR", "RATE_LIMITED", "INTERNAL", ...AUTH_ERRORS[d.auth], ...(d.errors ?? [])]);
  const response: Record<number, TSchema> = { ...errorResponses([...codes]) };
  if (d.data) response[d.status ?? 200] = Ok(d.data);
  const detail: Record<string, unknown> = {
    summary: d.summary,
    description: d.description,
    tags: d.tags,
    security: SECURITY[d.auth],
  };
  if (d.raw) {
    detail.responses = {
      [d.raw.status ?? 200]: { description: d.raw.description, content: { [d.raw.contentType]: { schema: { type: "string", format: "binary" } } } },
    };
  }
  return { detail, response };
}

/** The routes a signed-in caller may call, and who: the `auth` macro's argument. */
export type SignedIn = Extract<AuthKind, "api" | "session" | "admin">;

/** The macro option each kind sets (see authMacro and hookMacro); public and signed routes resolve no caller. */
type AuthOption<A extends AuthKind> = A extends SignedIn ? { auth: A } : A extends "mcp" ? { anyCaller: true } : A extends "webhook" ? { hookCaller: true } : Record<never, never>;

function authOption<A extends AuthKind>(kind: A): AuthOption<A> {
  const option = kind === "mcp" ? { anyCaller: true } : kind === "webhook" ? { hookCaller: true } : kind === "public" || kind === "signed" ? {} : { auth: kind };
  return option as AuthOption<A>;
}

/** How a module answers a refused caller when its routes do not answer in the error envelope (MCP: a JSON-RPC error). */
export type Refusal = (error: unknown, request: Request) => Response;

/**
 * The caller of a route, declared once: `doc({ auth })` names who may call, feeds the route's
 * OpenAPI `security`, and sets the macro that resolves the caller and hands it to the handler
 * as `caller`. `auth` (api, session, admin) authenticates in the transform phase, before body
 * validation, so an anonymous caller always gets 401; `anyCaller` (mcp) resolves an API token
 * or null for no `Authorization` at all, a header that is no live token being UNAUTHORIZED.
 * With `refuse`, a refusal is answered as it says instead of the envelope. A module `.use()`s
 * it before its routes.
 */
export function authMacro(callers: Pick<CallerResolver, "require" | "optionalToken">, refuse?: Refusal) {
  const answering = async <T>(request: Request, resolve: () => Promise<T>): Promise<T> => {
    if (!refuse) return resolve();
    try {
      return await resolve();
    } catch (e) {
      throw new Answered(refuse(e, request));
    }
  };
  return new Elysia().macro({
    auth: (kind: SignedIn) => ({
      transform: async ({ request }: { request: Request }) => {
        await answering(request, () => callers.require(request, kind));
      },
      resolve: async ({ request }: { request: Request }) => ({ caller: await answering(request, () => callers.require(request, kind)) }),
    }),
    anyCaller: (_on: true) => ({
      resolve: async ({ request }: { request: Request }) => ({ caller: await answering(request, () => callers.optionalToken(request)) }),
    }),
  });
}

/**
 * The `webhook` kind: the caller is whoever the hook's signature (or legacy secret) speaks for,
 * over the body's exact bytes (read here, at most JSON_BODY_LIMIT), as `verify` finds it.
 */
export function hookMacro<H>(verify: (workflowId: string, raw: Uint8Array, headers: Headers) => Promise<H>) {
  return new Elysia().macro({
    hookCaller: (_on: true) => ({
      resolve: async ({ request, params }: { request: Request; params: Record<string, string> }) => ({
        caller: await verify(params.id, await readCappedBytes(request, JSON_BODY_LIMIT, "Hook bodies"), request.headers),
      }),
    }),
  });
}

/**
 * The route-option builders of a module: `doc(d)` for routes without a body, `docJson(body, d)`
 * for JSON bodies (capped parser). Both carry `d.auth` to the `auth` macro (see authMacro).
 */
export function routeDocs() {
  return {
    doc: <A extends AuthKind>(d: RouteDoc & { auth: A }) => ({ ...describe(d), ...authOption(d.auth) }),
    docJson: <B extends TSchema, A extends AuthKind>(body: B, d: RouteDoc & { auth: A }) => {
      const described = describe(d);
      // The capped parser is a named one, so the OpenAPI generator cannot tell the body is JSON: say it here.
      const detail = { ...described.detail, [JSON_BODY_KEY]: JSON.parse(JSON.stringify(body)) };
      return { body, parse: "jsonCapped" as const, ...described, detail, ...authOption(d.auth) };
    },
  };
}
