/**
 * Better Auth's routes under /api/auth/*, passed through untouched (they keep Better Auth's
 * own answers). The three the contract names are listed in the OpenAPI description.
 */
import { Elysia } from "elysia";
import type { Services } from "../services";

const json = (properties: Record<string, unknown>, required: string[]) =>
  ({ required: true, content: { "application/json": { schema: { type: "object", properties, required } } } }) as never;

const cookieAnswer = { 200: { description: "Better Auth's answer; sets the svc.session_token cookie" } };

export function authRoutes(s: Services) {
  const pass = ({ request }: { request: Request }) => s.auth.handler(request);
  return new Elysia()
    .post("/api/auth/sign-up/email", pass, {
      parse: "none",
      detail: {
        summary: "Create an account (e-mail + password) and sign in",
        tags: ["Auth"],
        requestBody: json({ name: { type: "string" }, email: { type: "string", format: "email" }, password: { type: "string", minLength: 8 } }, ["name", "email", "password"]),
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
