-- GET /api/jobs pages a user's tool jobs newest first by (created_at, id), as every list does,
-- but the job index ended at created_at. A batch's items are inserted in one statement and share
-- one created_at, so every page read all of them to sort by id: 2,001 rows for a page of 50 with
-- a batch of 2,000 waiting, and each later page into the batch the same again. With id in the
-- index, as the other lists' indexes have it, a page reads its own rows.
DROP INDEX IF EXISTS "job_user_created_idx";
--> statement-breakpoint
CREATE INDEX "job_user_created_idx" ON "job" USING btree ("user_id","created_at","id");
