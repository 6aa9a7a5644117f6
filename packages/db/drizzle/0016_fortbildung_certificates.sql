CREATE TABLE "certificate_issuer" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"logo" text,
	"signature" text,
	"signatory" text DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_issuer_single_row" CHECK ("certificate_issuer"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"code_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"congress_id" integer NOT NULL,
	"kind" text NOT NULL,
	"learning_check_id" integer,
	"facts" jsonb NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"revoked_by" integer,
	"replaced_by" integer,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "certificates_number_unique" UNIQUE("number"),
	CONSTRAINT "certificates_code_hash_unique" UNIQUE("code_hash"),
	CONSTRAINT "certificates_kind_known" CHECK ("certificates"."kind" IN ('event', 'recording'))
);
--> statement-breakpoint
CREATE TABLE "learning_check_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"check_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"shown" jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"chosen" jsonb,
	"score_percent" integer,
	"passed" boolean
);
--> statement-breakpoint
CREATE TABLE "learning_check_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"check_id" integer NOT NULL,
	"position" integer NOT NULL,
	"question" text NOT NULL,
	"answers" jsonb NOT NULL,
	"explanation" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learning_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"day" date,
	"pass_percent" integer DEFAULT 70 NOT NULL,
	"category" text,
	"points" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learning_checks_pass_percent_range" CHECK ("learning_checks"."pass_percent" BETWEEN 1 AND 100),
	CONSTRAINT "learning_checks_points_range" CHECK ("learning_checks"."points" IS NULL OR "learning_checks"."points" BETWEEN 0 AND 100)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "efn" text;--> statement-breakpoint
ALTER TABLE "certificate_issuer" ADD CONSTRAINT "certificate_issuer_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_learning_check_id_learning_checks_id_fk" FOREIGN KEY ("learning_check_id") REFERENCES "public"."learning_checks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_check_attempts" ADD CONSTRAINT "learning_check_attempts_check_id_learning_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."learning_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_check_attempts" ADD CONSTRAINT "learning_check_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_check_questions" ADD CONSTRAINT "learning_check_questions_check_id_learning_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."learning_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_checks" ADD CONSTRAINT "learning_checks_package_id_congress_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."congress_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_event_current_uq" ON "certificates" USING btree ("user_id","congress_id") WHERE "certificates"."kind" = 'event' AND "certificates"."revoked_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_recording_current_uq" ON "certificates" USING btree ("user_id","learning_check_id") WHERE "certificates"."kind" = 'recording' AND "certificates"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "certificates_user_idx" ON "certificates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "certificates_congress_idx" ON "certificates" USING btree ("congress_id");--> statement-breakpoint
CREATE INDEX "learning_check_attempts_user_idx" ON "learning_check_attempts" USING btree ("user_id","check_id");--> statement-breakpoint
CREATE INDEX "learning_check_questions_check_idx" ON "learning_check_questions" USING btree ("check_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "learning_checks_package_day_uq" ON "learning_checks" USING btree ("package_id",coalesce("day", '0001-01-01'::date));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_efn_format" CHECK ("users"."efn" IS NULL OR "users"."efn" ~ '^[0-9]{15}$');