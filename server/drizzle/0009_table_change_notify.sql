-- Every process keeps answers read from these tables in memory (server/src/db/read-cache.ts) and
-- drops them when one changes: the process that wrote it at once, the others on this NOTIFY,
-- sent at commit. One per statement, and Postgres folds identical ones of a transaction.
CREATE OR REPLACE FUNCTION table_changed_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('vektor_tables', TG_TABLE_NAME);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS file_changed_notify ON "file";
--> statement-breakpoint
CREATE TRIGGER file_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "file" FOR EACH STATEMENT EXECUTE FUNCTION table_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS workflow_run_changed_notify ON "workflow_run";
--> statement-breakpoint
CREATE TRIGGER workflow_run_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workflow_run" FOR EACH STATEMENT EXECUTE FUNCTION table_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS workflow_step_changed_notify ON "workflow_step";
--> statement-breakpoint
CREATE TRIGGER workflow_step_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workflow_step" FOR EACH STATEMENT EXECUTE FUNCTION table_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS workflow_approval_changed_notify ON "workflow_approval";
--> statement-breakpoint
CREATE TRIGGER workflow_approval_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workflow_approval" FOR EACH STATEMENT EXECUTE FUNCTION table_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS delivery_changed_notify ON "delivery";
--> statement-breakpoint
CREATE TRIGGER delivery_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "delivery" FOR EACH STATEMENT EXECUTE FUNCTION table_changed_notify();
