-- The wake-up names the lane whose job became claimable, so a process wakes one idle lane of
-- that kind instead of every lane it has (each of which would run a claim that finds nothing).
-- Postgres folds identical notifications of one transaction into one.
CREATE OR REPLACE FUNCTION job_inserted_notify() RETURNS trigger AS $$
DECLARE
  l text;
BEGIN
  FOR l IN SELECT DISTINCT lane FROM inserted LOOP
    PERFORM pg_notify('vektor_jobs', l);
  END LOOP;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION job_requeued_notify() RETURNS trigger AS $$
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
CREATE TRIGGER job_inserted_notify AFTER INSERT ON job REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION job_inserted_notify();
--> statement-breakpoint
CREATE TRIGGER job_requeued_notify AFTER UPDATE OF status ON job FOR EACH ROW WHEN (NEW.status = 'queued' AND OLD.status IS DISTINCT FROM 'queued') EXECUTE FUNCTION job_requeued_notify();
--> statement-breakpoint
DROP FUNCTION IF EXISTS job_queued_notify();
