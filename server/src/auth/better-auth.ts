/**
 * Better Auth: e-mail + password accounts and session cookies (`svc.session_token`).
 * New accounts get the sign-up credit grant and, for ADMIN_EMAILS, the admin role.
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Db } from "../db/client";
import { schema } from "../db/schema";
import type { Settings } from "../config/keys";
import { recordGrant } from "../credits/ledger";
import { sendEmail } from "../workflows/notify/email";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordPolicy } from "./password-policy";

/** Set by our auth routes from the connection; whatever a client sends under this name is replaced. */
export const CLIENT_ADDRESS_HEADER = "x-vektor-client-address";
/** Better Auth's cap on sign-in tries from one address a minute, failed or not. */
export const SIGN_IN_PER_MINUTE = 30;

/** How long a password-reset link works (seconds). */
export const RESET_LINK_TTL_S = 3600;
const MAIL_TIMEOUT_MS = 15_000;

/** The web app's page that takes the reset link's token. */
export const resetLink = (baseUrl: string, token: string) => `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;

async function sendResetLink(config: Settings, baseUrl: string, to: string, token: string): Promise<void> {
  const smtpUrl = await config.get("email.smtp_url");
  if (!smtpUrl) return; // the route refuses first; nothing to send with
  const text = `Someone (hopefully you) asked to reset the password of this account on ${baseUrl}.\n\nSet a new password here within the hour (the link works once):\n${resetLink(baseUrl, token)}\n\nIf it was not you, ignore this message: the password stays as it is.`;
  await sendEmail(smtpUrl, baseUrl, MAIL_TIMEOUT_MS, to, { subject: "Reset your password", text });
}

export interface AuthDeps {
  db: Db;
  config: Settings;
  baseUrl: string;
  secret: string;
  adminEmails: string[];
  /** Called when an account's sessions or details changed (sign-out, revoked session, update, deletion). */
  accountChanged?: (userId: string) => Promise<void>;
}

export function createAuth({ db, config, baseUrl, secret, adminEmails, accountChanged = async () => {} }: AuthDeps) {
  return betterAuth({
    baseURL: baseUrl,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [baseUrl],
    database: drizzleAdapter(db, { provider: "pg", schema }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // A forgotten password: a one-time link by e-mail (when email.smtp_url is set), valid an hour;
      // using it ends every session of the account.
      sendResetPassword: async ({ user, token }) => sendResetLink(config, baseUrl, user.email, token),
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_S,
      revokeSessionsOnPasswordReset: true,
    },
    hooks: { before: passwordPolicy },
    // Better Auth turns its origin and CSRF checks off when NODE_ENV=test; keep them on so that
    // tests see what production does.
    // The client's address comes from a header the route sets from the connection (auth-routes.ts).
    advanced: { cookiePrefix: "svc", disableOriginCheck: false, ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    // Our own limiter covers every route, /api/auth included; Better Auth's adds per-address rules
    // for the endpoints that guess or send mail, counted in the database so every process shares
    // them (the growing back-off of failed sign-ins is auth/sign-in-throttle.ts).
    rateLimit: {
      enabled: true,
      storage: "database",
      customRules: {
        "/sign-in/*": { window: 60, max: SIGN_IN_PER_MINUTE },
        "/change-password": { window: 60, max: 10 },
        "/request-password-reset": { window: 60, max: 3 },
        "/reset-password": { window: 60, max: 10 },
        "/**": false,
      },
    },
    telemetry: { enabled: false },
    user: {
      additionalFields: {
        role: { type: "string", input: false, defaultValue: "user" },
        plan: { type: "string", input: false, defaultValue: "free" },
        credits: { type: "number", input: false, defaultValue: 0 },
      },
    },
    // Cached callers (CredentialCache) of an account are dropped before the request that signed
    // out, revoked a session or changed the account is answered.
    databaseHooks: {
      session: {
        delete: { after: async (s) => accountChanged(s.userId) },
      },
      user: {
        update: { after: async (u) => accountChanged(u.id) },
        delete: { after: async (u) => accountChanged(u.id) },
        create: {
          before: async (u) => {
            const grant = await config.get("credits.signup_grant");
            const role = adminEmails.includes(u.email.toLowerCase()) ? "admin" : "user";
            return { data: { ...u, role, plan: "free", credits: grant } };
          },
          after: async (u) => {
            const credits = (u as { credits?: number }).credits ?? 0;
            if (credits > 0) await recordGrant(db, u.id, credits, "signup_grant");
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
