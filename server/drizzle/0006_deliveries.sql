CREATE TABLE "delivery" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"run_status" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "delivery" ADD CONSTRAINT "delivery_run_id_workflow_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."workflow_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_run_idx" ON "delivery" USING btree ("run_id","created_at");