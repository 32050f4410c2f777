-- A tool call's job is mostly inserted running (a lane of its creator's process is held for it),
-- and such a row wakes nobody; yet the statement-level trigger of 0017 captured every inserted
-- row in a transition table and ran its function over them, on every call. A row trigger whose
-- WHEN condition is false is not even called. Postgres folds identical notifications of one
-- transaction into one, so a batch of many queued jobs still sends one wake-up per lane.
CREATE OR REPLACE FUNCTION job_queued_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('vektor_jobs', NEW.lane);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS job_inserted_notify ON job;
--> statement-breakpoint
DROP TRIGGER IF EXISTS job_requeued_notify ON job;
--> statement-breakpoint
CREATE TRIGGER job_inserted_notify AFTER INSERT ON job FOR EACH ROW WHEN (NEW.status = 'queued') EXECUTE FUNCTION job_queued_notify();
--> statement-breakpoint
CREATE TRIGGER job_requeued_notify AFTER UPDATE OF status ON job FOR EACH ROW WHEN (NEW.status = 'queued' AND OLD.status IS DISTINCT FROM 'queued') EXECUTE FUNCTION job_queued_notify();
--> statement-breakpoint
DROP FUNCTION IF EXISTS job_inserted_notify();
--> statement-breakpoint
DROP FUNCTION IF EXISTS job_requeued_notify();
--> statement-breakpoint
-- Fewer index entries per job, written at its insert and again at each change of status (which
-- cannot be a HOT update): /status counts live tool jobs through job_lane_claim_idx (lane 'tool'
-- is exactly kind tool.run), so job_queue_idx had no reader left; only batch items have a batch,
-- and only control jobs a dedupe key.
DROP INDEX IF EXISTS "job_queue_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "job_batch_idx";
--> statement-breakpoint
CREATE INDEX "job_batch_idx" ON "job" USING btree ("batch_id","position") WHERE batch_id IS NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "job_dedupe_live_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "job_dedupe_live_idx" ON "job" USING btree ("dedupe_key") WHERE dedupe_key IS NOT NULL AND status in ('queued', 'running');
