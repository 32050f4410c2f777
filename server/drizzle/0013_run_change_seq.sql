CREATE SEQUENCE "public"."workflow_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
DROP INDEX "workflow_run_user_idx";--> statement-breakpoint
ALTER TABLE "workflow_run" ADD COLUMN "change_seq" bigint DEFAULT nextval('workflow_change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "workflow_step" ADD COLUMN "change_seq" bigint DEFAULT nextval('workflow_change_seq') NOT NULL;--> statement-breakpoint
CREATE INDEX "workflow_run_user_idx" ON "workflow_run" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- The run event stream (GET /api/workflows/runs/{runId}/events) sends what changed after the
-- client's Last-Event-ID: a run or step row takes the sequence's next value when inserted (the
-- column default) and at every update that changes what its event shows (these triggers); the
-- value is the event's id. Every write to a run's rows holds the run's row lock (engine.ts
-- lockRun), so within a run the values grow in commit order: a reader that has seen N has seen
-- every change of it below N. Columns no event shows do not count: a run's params and sealed
-- secret (sealed again at start-up), a step's `charged` (cleared on every step by a cancel).
CREATE OR REPLACE FUNCTION workflow_run_change_seq_bump() RETURNS trigger AS $$
DECLARE
  shown workflow_run;
BEGIN
  shown := NEW;
  shown.change_seq := OLD.change_seq;
  shown.params_json := OLD.params_json;
  shown.notify_secret_sealed := OLD.notify_secret_sealed;
  NEW.change_seq := CASE WHEN shown IS DISTINCT FROM OLD THEN nextval('workflow_change_seq') ELSE OLD.change_seq END;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION workflow_step_change_seq_bump() RETURNS trigger AS $$
DECLARE
  shown workflow_step;
BEGIN
  shown := NEW;
  shown.change_seq := OLD.change_seq;
  shown.charged := OLD.charged;
  NEW.change_seq := CASE WHEN shown IS DISTINCT FROM OLD THEN nextval('workflow_change_seq') ELSE OLD.change_seq END;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS workflow_run_change_seq ON "workflow_run";
--> statement-breakpoint
CREATE TRIGGER workflow_run_change_seq BEFORE UPDATE ON "workflow_run" FOR EACH ROW EXECUTE FUNCTION workflow_run_change_seq_bump();
--> statement-breakpoint
DROP TRIGGER IF EXISTS workflow_step_change_seq ON "workflow_step";
--> statement-breakpoint
CREATE TRIGGER workflow_step_change_seq BEFORE UPDATE ON "workflow_step" FOR EACH ROW EXECUTE FUNCTION workflow_step_change_seq_bump();
