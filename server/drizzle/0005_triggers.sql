CREATE TABLE "webhook_signature" (
	"trigger_id" text NOT NULL,
	"signature" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_signature_trigger_id_signature_pk" PRIMARY KEY("trigger_id","signature")
);
--> statement-breakpoint
CREATE TABLE "workflow_trigger" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"type" text NOT NULL,
	"config" jsonb NOT NULL,
	"secret_sealed" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_trigger_fire" (
	"id" text PRIMARY KEY NOT NULL,
	"trigger_id" text NOT NULL,
	"fire_at" timestamp (3) with time zone,
	"file_id" text,
	"run_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_signature" ADD CONSTRAINT "webhook_signature_trigger_id_workflow_trigger_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."workflow_trigger"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_trigger" ADD CONSTRAINT "workflow_trigger_workflow_id_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflow"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_trigger_fire" ADD CONSTRAINT "workflow_trigger_fire_trigger_id_workflow_trigger_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."workflow_trigger"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_signature_expires_idx" ON "webhook_signature" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_trigger_wf_type_idx" ON "workflow_trigger" USING btree ("workflow_id","type");--> statement-breakpoint
CREATE INDEX "workflow_trigger_type_idx" ON "workflow_trigger" USING btree ("type");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_trigger_fire_at_idx" ON "workflow_trigger_fire" USING btree ("trigger_id","fire_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_trigger_fire_file_idx" ON "workflow_trigger_fire" USING btree ("trigger_id","file_id");