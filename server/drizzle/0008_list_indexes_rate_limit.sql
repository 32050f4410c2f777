-- Rate limit counts shared by the processes on one PostgreSQL: unlogged, because they live a
-- minute and a crash losing them only forgives a minute's requests.
-- The list indexes end in id: newest-first pages order by (created_at, id) and continue after a
-- cursor with a row comparison, which the index now answers directly instead of filtering.
CREATE UNLOGGED TABLE "rate_limit_count" (
	"key_hash" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_count_key_hash_window_start_pk" PRIMARY KEY("key_hash","window_start")
);
--> statement-breakpoint
DROP INDEX "batch_user_created_idx";--> statement-breakpoint
DROP INDEX "credit_ledger_user_idx";--> statement-breakpoint
DROP INDEX "file_user_created_idx";--> statement-breakpoint
DROP INDEX "workflow_user_created_idx";--> statement-breakpoint
DROP INDEX "workflow_run_wf_created_idx";--> statement-breakpoint
CREATE INDEX "batch_user_created_idx" ON "batch" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "credit_ledger_user_idx" ON "credit_ledger" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "file_user_created_idx" ON "file" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "workflow_user_created_idx" ON "workflow" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "workflow_run_wf_created_idx" ON "workflow_run" USING btree ("workflow_id","created_at","id");