/**
 * Better Auth's routes under /api/auth/*, passed through (they keep Better Auth's own successful
 * answers; only a script's request loses its Sec-Fetch-* headers, and a refusal becomes the
 * error envelope). The three the contract names are listed in the OpenAPI description.
 */
import { codeForStatus, ERROR_CATALOG } from "@vektor/shared/errors";
import { Elysia } from "elysia";
import { errorResponse } from "../http/errors";
import type { Services } from "../services";

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
  const answer = errorResponse(code, message, headers);
  for (const cookie of res.headers.getSetCookie()) answer.headers.append("set-cookie", cookie);
  return answer;
}

const cookieAnswer = { 200: { description: "Better Auth's answer; sets the svc.session_token cookie" } };

export function authRoutes(s: Pick<Services, "auth">) {
  const pass = async ({ request }: { request: Request }) => asEnvelope(await s.auth.handler(asScriptRequest(request)));
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
    .post("/api/auth/sign-in/email", pass, {
      parse: "none",
      detail: { summary: "Sign in", tags: ["Auth"], requestBody: json({ email: { type: "string" }, password: { type: "string" } }, ["email", "password"]), responses: cookieAnswer },
    })
    .post("/api/auth/sign-out", pass, { parse: "none", detail: { summary: "Sign out (ends the session)", tags: ["Auth"], responses: { 200: { description: "Better Auth's answer" } } } })
    .all("/api/auth/*", pass, { parse: "none", detail: { hide: true } });
}
