-- A deleted account's credit ledger stays for the audit, anonymised: its user_id becomes null (issue 26).
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_user_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;