/** Account, credit ledger and API token models (contract section 2). */
import { Type, type Static } from "@sinclair/typebox";
import { TokenScope } from "./vocab";

export const Account = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String({ description: "user or admin" }),
  plan: Type.Union([Type.Literal("free"), Type.Literal("pro")]),
  credits: Type.Integer(),
});
export type Account = Static<typeof Account>;

export const LedgerEntry = Type.Object({
  id: Type.String(),
  amount: Type.Integer({ description: "positive for a grant or refund, negative for a charge" }),
  reason: Type.String(),
  ref: Type.Union([Type.String(), Type.Null()]),
  refName: Type.Union([Type.String(), Type.Null()], { description: "the current name of the batch, or of the workflow of the run, that ref names; null for other entries or once it is deleted" }),
  createdAt: Type.String({ format: "date-time" }),
});
export type LedgerEntry = Static<typeof LedgerEntry>;

export { TokenScope } from "./vocab";

export const CreateTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Optional(Type.Array(TokenScope, { minItems: 1, maxItems: 2, description: "default [\"api\"]" })),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  },
  { additionalProperties: false },
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;

export const TokenInfo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  last4: Type.String(),
  scopes: Type.Array(TokenScope),
  createdAt: Type.String({ format: "date-time" }),
  lastUsedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});
export type TokenInfo = Static<typeof TokenInfo>;

export const CreatedToken = Type.Composite([TokenInfo, Type.Object({ token: Type.String({ description: "vk_...; shown only once" }) })]);
export type CreatedToken = Static<typeof CreatedToken>;

export const TokenRevoked = Type.Object({ id: Type.String(), revoked: Type.Boolean() });
export type TokenRevoked = Static<typeof TokenRevoked>;

/**
 * The part of Better Auth's sign-up / sign-in answer that clients read (the routes keep Better
 * Auth's own shape, contract section 2; the session itself travels in the Set-Cookie).
 */
export const AuthUser = Type.Object({ user: Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() }) });
export type AuthUser = Static<typeof AuthUser>;

/** Better Auth's sign-out answer. */
export const SignedOut = Type.Object({ success: Type.Boolean() });
export type SignedOut = Static<typeof SignedOut>;

/** One signed-in session of the account (issue 26): where and when, never its token. */
export const SessionInfo = Type.Object({
  id: Type.String(),
  current: Type.Boolean({ description: "The session this request came with" }),
  createdAt: Type.String({ format: "date-time" }),
  lastSeenAt: Type.String({ format: "date-time" }),
  expiresAt: Type.String({ format: "date-time" }),
  ipAddress: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
});
export type SessionInfo = Static<typeof SessionInfo>;

export const SessionsRevoked = Type.Object({ revoked: Type.Integer({ minimum: 0 }) });
export type SessionsRevoked = Static<typeof SessionsRevoked>;

export const DeleteAccountBody = Type.Object({ password: Type.String({ minLength: 1, maxLength: 256, description: "The account's password, to confirm" }) }, { additionalProperties: false });
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

export const AccountDeleted = Type.Object({ deleted: Type.Boolean(), files: Type.Integer({ minimum: 0 }) });
export type AccountDeleted = Static<typeof AccountDeleted>;

export const SetPasswordBody = Type.Object({ newPassword: Type.String({ minLength: 8, maxLength: 256 }) }, { additionalProperties: false });
export type SetPasswordBody = Static<typeof SetPasswordBody>;

export const PasswordSet = Type.Object({ userId: Type.String(), sessionsRevoked: Type.Boolean() });
export type PasswordSet = Static<typeof PasswordSet>;
