-- The approvals inbox (GET /api/workflows/approvals) lists a user's approvals newest first, but
-- an approval knew its owner only through its run: every page joined all the approvals of every
-- user to their runs and kept the caller's (20,000 rows read for a page of 50). An approval now
-- carries its run's owner, indexed with the list's order, and a page reads its own rows. Deleting
-- a user still deletes them through their runs (ON DELETE CASCADE), so no foreign key of its own.
ALTER TABLE "workflow_approval" ADD COLUMN "user_id" text;
--> statement-breakpoint
UPDATE "workflow_approval" a SET "user_id" = r."user_id" FROM "workflow_run" r WHERE r."id" = a."run_id";
--> statement-breakpoint
ALTER TABLE "workflow_approval" ALTER COLUMN "user_id" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "workflow_approval_user_idx" ON "workflow_approval" USING btree ("user_id","requested_at","id");
