CREATE TABLE "workflow" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"graph_json" text NOT NULL,
	"params_json" text,
	"version_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_approval" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"node_id" text NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"decision" text,
	"note" text,
	"decided_by" text
);
--> statement-breakpoint
CREATE TABLE "workflow_run" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"user_id" text NOT NULL,
	"version_id" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"plan" jsonb NOT NULL,
	"params_json" text,
	"input_file_ids" jsonb NOT NULL,
	"output_file_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"credits" integer NOT NULL,
	"per_step_credits" integer NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_message" text,
	"replay_of" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "workflow_step" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"node_id" text NOT NULL,
	"parent_node_id" text,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"charged" boolean DEFAULT false NOT NULL,
	"input_file_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"output_file_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"job_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"logs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_code" text,
	"error_message" text,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "workflow_template" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"graph_json" text NOT NULL,
	"params_json" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_version" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"name" text NOT NULL,
	"graph_json" text NOT NULL,
	"params_json" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "kind" text DEFAULT 'tool.run' NOT NULL;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "lane" text DEFAULT 'tool' NOT NULL;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "run_after" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "cancel_requested_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_approval" ADD CONSTRAINT "workflow_approval_run_id_workflow_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."workflow_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_run" ADD CONSTRAINT "workflow_run_workflow_id_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflow"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_run" ADD CONSTRAINT "workflow_run_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_step" ADD CONSTRAINT "workflow_step_run_id_workflow_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."workflow_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_template" ADD CONSTRAINT "workflow_template_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_version" ADD CONSTRAINT "workflow_version_workflow_id_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflow"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workflow_user_created_idx" ON "workflow" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "workflow_approval_run_idx" ON "workflow_approval" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "workflow_run_wf_created_idx" ON "workflow_run" USING btree ("workflow_id","created_at");--> statement-breakpoint
CREATE INDEX "workflow_run_user_idx" ON "workflow_run" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_step_run_node_idx" ON "workflow_step" USING btree ("run_id","node_id");--> statement-breakpoint
CREATE INDEX "workflow_template_user_idx" ON "workflow_template" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "workflow_version_wf_idx" ON "workflow_version" USING btree ("workflow_id","created_at");--> statement-breakpoint
CREATE INDEX "job_lane_claim_idx" ON "job" USING btree ("lane","status","run_after");--> statement-breakpoint
CREATE UNIQUE INDEX "job_dedupe_live_idx" ON "job" USING btree ("dedupe_key") WHERE status in ('queued', 'running');