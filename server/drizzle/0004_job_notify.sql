-- Wake idle runners in every process when a job becomes claimable: a NOTIFY is delivered when
-- the transaction that queued the job commits, so a listener never looks too early.
CREATE OR REPLACE FUNCTION job_queued_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('vektor_jobs', '');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER job_inserted_notify AFTER INSERT ON job FOR EACH STATEMENT EXECUTE FUNCTION job_queued_notify();
--> statement-breakpoint
CREATE TRIGGER job_requeued_notify AFTER UPDATE OF status ON job FOR EACH ROW WHEN (NEW.status = 'queued' AND OLD.status IS DISTINCT FROM 'queued') EXECUTE FUNCTION job_queued_notify();
