-- Fewer index entries per tool call. The claim index is read only for live jobs (every claim,
-- limit and depth query names status 'queued' or 'running' as a literal), yet held every job that
-- ever ran: each job's end wrote it one more entry, and the index grew with the history. It now
-- holds live jobs only. file_status_created_idx had no reader (retention selects by created_at
-- and job_id, the file list by user): every file row inserted or confirmed wrote it an entry.
DROP INDEX IF EXISTS "job_lane_claim_idx";
--> statement-breakpoint
CREATE INDEX "job_lane_claim_idx" ON "job" USING btree ("lane","status","run_after") WHERE status in ('queued', 'running');
--> statement-breakpoint
DROP INDEX IF EXISTS "file_status_created_idx";
