-- A batch's event streams (server/src/modules/batch/events.ts) hear each of its items end, so a
-- batch's end reaches its watchers when it happens, not at their next poll (JOB_POLL_MS later,
-- half a second by default). Only batch items, only as they end: a row trigger whose WHEN is
-- false is not even called. A transaction that ends many items of one batch (a cancel) sends one
-- notification, as Postgres folds identical ones; the streams' poll still covers that.
CREATE OR REPLACE FUNCTION batch_item_ended_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('vektor_batches', NEW.batch_id);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS job_batch_item_ended_notify ON job;
--> statement-breakpoint
CREATE TRIGGER job_batch_item_ended_notify AFTER UPDATE OF status ON job FOR EACH ROW WHEN (NEW.batch_id IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'cancelled') AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION batch_item_ended_notify();
