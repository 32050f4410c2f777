-- A tool job its creator inserts already running (a free lane of that process holds it:
-- queue/enqueue.ts enqueueClaimed) is claimable by nobody: waking the lanes for it would only
-- make each of them run a claim that finds nothing. Only inserts of queued jobs wake lanes.
CREATE OR REPLACE FUNCTION job_inserted_notify() RETURNS trigger AS $$
DECLARE
  l text;
BEGIN
  FOR l IN SELECT DISTINCT lane FROM inserted WHERE status = 'queued' LOOP
    PERFORM pg_notify('vektor_jobs', l);
  END LOOP;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
