ALTER TABLE "learning_checks" ADD COLUMN "vnr" text;--> statement-breakpoint
ALTER TABLE "learning_checks" ADD CONSTRAINT "learning_checks_vnr_digits" CHECK ("learning_checks"."vnr" ~ '^[0-9]{19}$');