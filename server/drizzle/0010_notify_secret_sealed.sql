-- notifySecret leaves params_json: each workflow, version, run and template keeps it sealed
-- (AES-256-GCM, server/src/workflows/notify/secret.ts) in notify_secret_sealed. SQL cannot seal,
-- so rows written before this migration are sealed by the server at every start, after the
-- migrations (sealPlaintextNotifySecrets, idempotent); the partial indexes find the rows that
-- still hold one in params_json, so that step reads nothing once they are done.
ALTER TABLE "workflow" ADD COLUMN "notify_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "workflow_run" ADD COLUMN "notify_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "workflow_template" ADD COLUMN "notify_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "workflow_version" ADD COLUMN "notify_secret_sealed" text;--> statement-breakpoint
CREATE INDEX "workflow_plain_notify_secret_idx" ON "workflow" USING btree ("id") WHERE "workflow"."params_json" LIKE '%notifySecret%';--> statement-breakpoint
CREATE INDEX "workflow_run_plain_notify_secret_idx" ON "workflow_run" USING btree ("id") WHERE "workflow_run"."params_json" LIKE '%notifySecret%';--> statement-breakpoint
CREATE INDEX "workflow_template_plain_notify_secret_idx" ON "workflow_template" USING btree ("id") WHERE "workflow_template"."params_json" LIKE '%notifySecret%';--> statement-breakpoint
CREATE INDEX "workflow_version_plain_notify_secret_idx" ON "workflow_version" USING btree ("id") WHERE "workflow_version"."params_json" LIKE '%notifySecret%';