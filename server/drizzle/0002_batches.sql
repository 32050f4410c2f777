CREATE TABLE "batch" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"engine" text NOT NULL,
	"params" jsonb NOT NULL,
	"credits" integer NOT NULL,
	"per_file_credits" integer NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"total" integer NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	"zip_state" text,
	"zip_key" text,
	"zip_size" bigint,
	"zip_sha256" text,
	"zip_started_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_preset" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"params" jsonb NOT NULL,
	"engine" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "job" ADD COLUMN "position" integer;--> statement-breakpoint
ALTER TABLE "batch" ADD CONSTRAINT "batch_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_preset" ADD CONSTRAINT "batch_preset_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_user_created_idx" ON "batch" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "batch_preset_user_idx" ON "batch_preset" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "job_batch_idx" ON "job" USING btree ("batch_id","position");