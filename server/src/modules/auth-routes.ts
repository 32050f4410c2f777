/**
 * Better Auth's routes under /api/auth/*, passed through (they keep Better Auth's own successful
 * answers; only a script's request loses its Sec-Fetch-* headers, and a refusal becomes the
 * error envelope). The three the contract names are listed in the OpenAPI description.
 */
import { codeForStatus, ERROR_CATALOG } from "@vektor/shared/errors";
import { Elysia } from "elysia";
import { CLIENT_ADDRESS_HEADER, RESET_LINK_TTL_S, SIGN_IN_PER_MINUTE } from "../auth/better-auth";
import { FIRST_WAIT_S, FREE_PER_ACCOUNT, FREE_PER_ADDRESS, SignInThrottle } from "../auth/sign-in-throttle";
import { JSON_BODY_LIMIT, readCappedBytes, requestOrigin } from "../http/core";
import { errorResponse } from "../http/errors";
import type { Services } from "../services";

/**
 * Better Auth learns the client's address from a header we set (any such header the client sent
 * is replaced), so its per-address rules and its session rows see the same address we do.
 */
function withAddress(request: Request, address: string): Request {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, address);
  return new Request(request, { headers });
}

const json = (properties: Record<string, unknown>, required: string[]) =>
  ({ required: true, content: { "application/json": { schema: { type: "object", properties, required } } } }) as never;

/**
 * Node's fetch (undici) sends `Sec-Fetch-Mode: cors`, which Better Auth takes for a browser and
 * then refuses for lack of an Origin. A request with no Origin, Referer or cookie carries no
 * ambient credentials and names no site, so it is no CSRF risk: drop its Sec-Fetch-* headers and
 * Better Auth treats it like any other script. Requests with a cookie or an origin keep the checks.
 */
function asScriptRequest(request: Request): Request {
  const h = request.headers;
  if (h.has("origin") || h.has("referer") || h.has("cookie")) return request;
  const fetchMetadata = [...h.keys()].filter((k) => k.startsWith("sec-fetch-"));
  if (fetchMetadata.length === 0) return request;
  const headers = new Headers(h);
  for (const k of fetchMetadata) headers.delete(k);
  return new Request(request, { headers });
}

/**
 * Every failure is the error envelope with a code of the catalog, at that code's status (an
 * existing e-mail, which Better Auth answers 422, is a VALIDATION_ERROR of the body); its
 * message and headers (Retry-After, cookies) are kept.
 */
async function asEnvelope(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
  const code = codeForStatus(res.status);
  const message = code !== "INTERNAL" && typeof body?.message === "string" && body.message ? body.message : ERROR_CATALOG[code].message;
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !["content-length", "content-type", "set-cookie"].includes(k)));
  const retryAfter = res.headers.get("x-retry-after");
  if (retryAfter && !headers["retry-after"]) headers["retry-after"] = retryAfter;
  const answer = errorResponse(code, message, headers);
  for (const cookie of res.headers.getSetCookie()) answer.headers.append("set-cookie", cookie);
  return answer;
}

/**
 * The request with its body read already: size-capped, and within the body deadline (408
 * REQUEST_TIMEOUT past it). Better Auth reads bodies itself, after our parser, so a client
 * trickling one in would otherwise hold its connection for as long as it liked. Read from the
 * request as it arrived, which carries this server's body limits.
 */
async function buffered(request: Request): Promise<Request> {
  if (request.body === null || request.method === "GET" || request.method === "HEAD") return request;
  const body = await readCappedBytes(request, JSON_BODY_LIMIT, "Account request bodies");
  return new Request(request.url, { method: request.method, headers: request.headers, body: body as Uint8Array<ArrayBuffer> });
}

/** The e-mail of a sign-in body, or null when the body is not one (Better Auth then refuses it). */
async function emailOf(request: Request): Promise<string | null> {
  const body = (await request.clone().json().catch(() => null)) as { email?: unknown } | null;
  return typeof body?.email === "string" ? body.email : null;
}

const cookieAnswer = { 200: { description: "Better Auth's answer; sets the svc.session_token cookie" } };

export function authRoutes(s: Pick<Services, "auth" | "database" | "config">) {
  // The client's address as TRUST_PROXY lets it be told (the rate limit's and the access log's too).
  const handle = (read: Request, address: string) => s.auth.handler(withAddress(asScriptRequest(read), address));
  const pass = async ({ request }: { request: Request }) => asEnvelope(await handle(await buffered(request), requestOrigin(request).address));
  const throttle = new SignInThrottle(s.database.db);
  /** Sign-in, held back while its account or address is in back-off (see sign-in-throttle.ts). */
  const signIn = async ({ request }: { request: Request }) => {
    const address = requestOrigin(request).address;
    const read = await buffered(request);
    const email = await emailOf(read);
    if (email === null) return asEnvelope(await handle(read, address));
    const wait = await throttle.retryAfter(email, address);
    if (wait > 0) return errorResponse("RATE_LIMITED", `Too many failed sign-ins; try again in ${wait} s`, { "retry-after": String(wait) });
    const res = await handle(read, address);
    if (res.status === 401) await throttle.failed(email, address);
    else if (res.ok) await throttle.succeeded(email, address);
    return asEnvelope(res);
  };
  return new Elysia()
    .post("/api/auth/sign-up/email", pass, {
      parse: "none",
      detail: {
        summary: "Create an account (e-mail + password) and sign in",
        description:
          "Scripts may call it without an Origin header (as may sign-in); a request that carries a cookie or comes from a browser must send an Origin of this site. A password is 8 to 256 characters of any kind (NIST SP 800-63B: no composition rules); one on the shipped list of common and breached passwords is refused with 400 VALIDATION_ERROR saying so.",
        tags: ["Auth"],
        requestBody: json({ name: { type: "string" }, email: { type: "string", format: "email" }, password: { type: "string", minLength: 8, maxLength: 256 } }, ["name", "email", "password"]),
        responses: cookieAnswer,
      },
    })
    .post("/api/auth/sign-in/email", signIn, {
      parse: "none",
      detail: {
        summary: "Sign in",
        description: `Failed sign-ins are throttled: after ${FREE_PER_ACCOUNT} failures on one e-mail, each address that failed on it waits ${FIRST_WAIT_S} s before its next try, doubling with every further failure (an address that has not failed on it may still try); after ${FREE_PER_ADDRESS} failures from one address, that address waits likewise for any e-mail; and an address may try at most ${SIGN_IN_PER_MINUTE} times a minute. A throttled try is answered 429 RATE_LIMITED with Retry-After, alike for e-mails with and without an account.`,
        tags: ["Auth"], requestBody: json({ email: { type: "string" }, password: { type: "string" } }, ["email", "password"]),
        responses: cookieAnswer,
      },
    })
    .post(
      "/api/auth/request-password-reset",
      async (ctx) => ((await s.config.get("email.smtp_url")) ? pass(ctx) : errorResponse("INVALID_STATE", "This server sends no e-mail (email.smtp_url is not set); ask an administrator to set a new password")),
      {
        parse: "none",
        detail: {
          summary: "E-mail a password-reset link",
          description: `Sends a one-time link, valid ${RESET_LINK_TTL_S / 60} minutes, to the address if an account has it (the answer is the same either way). Without email.smtp_url: 409 INVALID_STATE (an administrator sets a new password instead: POST /api/admin/users/{id}/password).`,
          tags: ["Auth"],
          requestBody: json({ email: { type: "string", format: "email" } }, ["email"]),
          responses: { 200: { description: "Better Auth's answer ({ status: true })" } },
        },
      },
    )
    .post("/api/auth/reset-password", pass, {
      parse: "none",
      detail: {
        summary: "Set a new password with a reset link's token",
        description: "The token works once; every session of the account ends. The new password follows the sign-up rules.",
        tags: ["Auth"],
        requestBody: json({ token: { type: "string" }, newPassword: { type: "string", minLength: 8, maxLength: 256 } }, ["token", "newPassword"]),
        responses: { 200: { description: "Better Auth's answer ({ status: true })" } },
      },
    })
    .post("/api/auth/change-password", pass, {
      parse: "none",
      detail: {
        summary: "Change the password (signed in)",
        description: "A wrong currentPassword is a 400; with revokeOtherSessions (the official client sends true) every other session ends. The new password follows the sign-up rules.",
        tags: ["Auth"],
        requestBody: json({ currentPassword: { type: "string" }, newPassword: { type: "string", minLength: 8, maxLength: 256 }, revokeOtherSessions: { type: "boolean" } }, ["currentPassword", "newPassword"]),
        responses: cookieAnswer,
      },
    })
    .post("/api/auth/sign-out", pass, { parse: "none", detail: { summary: "Sign out (ends the session)", tags: ["Auth"], responses: { 200: { description: "Better Auth's answer" } } } })
    .all("/api/auth/*", pass, { parse: "none", detail: { hide: true } });
}
