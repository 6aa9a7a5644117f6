-- two starts at once could leave two open attempts of one person and check; the newest stays (a start returns it)
DELETE FROM "learning_check_attempts" a USING "learning_check_attempts" b
 WHERE a."submitted_at" IS NULL AND b."submitted_at" IS NULL
   AND a."user_id" = b."user_id" AND a."check_id" = b."check_id"
   AND (a."started_at", a."id") < (b."started_at", b."id");--> statement-breakpoint
CREATE UNIQUE INDEX "learning_check_attempts_open_uq" ON "learning_check_attempts" USING btree ("user_id","check_id") WHERE "learning_check_attempts"."submitted_at" IS NULL;
