-- Sign-in throttling (issue 26): Better Auth's own per-address rate limit, kept in the database so
-- every process shares it, and the failed sign-ins per account, account+address and address that
-- set the growing back-off.
CREATE TABLE "auth_rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "auth_rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sign_in_failure" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failed_at" timestamp (3) with time zone NOT NULL
);
