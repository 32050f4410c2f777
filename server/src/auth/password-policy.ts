/**
 * NIST SP 800-63B passwords: at least 8 characters (up to 256), no composition rules, and none
 * found in a list of common and breached passwords. The list ships with the service (zxcvbn-ts's
 * common list, 49 k passwords gathered from public breach corpora), so checking calls no one.
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { APIError, createAuthMiddleware } from "better-auth/api";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

const common = new Set(dictionary["passwords-common"]);

/** Case does not make a listed password safe ("Password1" is as guessable as "password1"). */
export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  "This password is on a list of common or breached passwords, so it is among the first an attacker tries; choose another (a few unrelated words make a good one)";

/** Better Auth's endpoints that set a password, and the body field that carries it. */
const PASSWORD_FIELD: Record<string, string> = {
  "/sign-up/email": "password",
  "/change-password": "newPassword",
  "/reset-password": "newPassword",
};

/** Refuses a listed password before Better Auth stores it: a 400 that says why. */
export const passwordPolicy = createAuthMiddleware(async (ctx) => {
  const field = PASSWORD_FIELD[ctx.path];
  const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined;
  if (typeof password === "string" && isCommonPassword(password)) throw new APIError("BAD_REQUEST", { message: COMMON_PASSWORD_MESSAGE, code: "PASSWORD_COMPROMISED" });
});
