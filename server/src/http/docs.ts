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

/** Where docJson leaves a route's body schema for the OpenAPI document (see http/openapi.ts). */
export const JSON_BODY_KEY = "x-json-body";

export type AuthKind = "public" | "api" | "session" | "admin" | "signed";

const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  public: [],
  api: [{ cookieAuth: [] }, { bearerAuth: [] }],
  session: [{ cookieAuth: [] }],
  admin: [{ cookieAuth: [] }],
  signed: [{ signedUrl: [] }],
};

const AUTH_ERRORS: Record<AuthKind, ErrorCode[]> = {
  public: [],
  api: ["UNAUTHORIZED"],
  session: ["UNAUTHORIZED"],
  admin: ["UNAUTHORIZED", "FORBIDDEN"],
  signed: ["UNAUTHORIZED"],
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
export type SignedIn = Exclude<AuthKind, "public" | "signed">;
type AuthOption<A extends AuthKind> = A extends SignedIn ? { auth: A } : Record<never, never>;

/**
 * The caller of a route, declared once: `doc({ auth })` names who may call, feeds the route's
 * OpenAPI `security`, and sets the `auth` macro, which authenticates in the transform phase
 * (before body validation, so an anonymous caller always gets 401) and hands the handler its
 * `caller`. A module `.use()`s it before its routes.
 */
export function authMacro(callers: Pick<CallerResolver, "require">) {
  return new Elysia().macro({
    auth: (kind: SignedIn) => ({
      transform: async ({ request }: { request: Request }) => {
        await callers.require(request, kind);
      },
      resolve: async ({ request }: { request: Request }) => ({ caller: await callers.require(request, kind) }),
    }),
  });
}

/**
 * The route-option builders of a module: `doc(d)` for routes without a body, `docJson(body, d)`
 * for JSON bodies (capped parser). Both carry `d.auth` to the `auth` macro (see authMacro).
 */
export function routeDocs() {
  const authOf = <A extends AuthKind>(auth: A) => (auth === "public" || auth === "signed" ? {} : { auth }) as AuthOption<A>;
  return {
    doc: <A extends AuthKind>(d: RouteDoc & { auth: A }) => ({ ...describe(d), ...authOf(d.auth) }),
    docJson: <B extends TSchema, A extends AuthKind>(body: B, d: RouteDoc & { auth: A }) => {
      const described = describe(d);
      // The capped parser is a named one, so the OpenAPI generator cannot tell the body is JSON: say it here.
      const detail = { ...described.detail, [JSON_BODY_KEY]: JSON.parse(JSON.stringify(body)) };
      return { body, parse: "jsonCapped" as const, ...described, detail, ...authOf(d.auth) };
    },
  };
}
