CREATE TABLE "presence_checks" (
	"user_id" integer NOT NULL,
	"congress_id" integer NOT NULL,
	"day" date NOT NULL,
	"seq" integer NOT NULL,
	"due_at_seconds" integer NOT NULL,
	"asked_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	CONSTRAINT "presence_checks_user_id_congress_id_day_seq_pk" PRIMARY KEY("user_id","congress_id","day","seq"),
	CONSTRAINT "presence_checks_due_not_negative" CHECK ("presence_checks"."due_at_seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "fortbildung" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "vnr" text;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "fortbildung_category" text;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "points_per_day" integer;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "required_percent" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "presence_checks_per_day" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "presence_checks_required" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "congresses" ADD COLUMN "webinar_minutes" integer;--> statement-breakpoint
ALTER TABLE "presence_checks" ADD CONSTRAINT "presence_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence_checks" ADD CONSTRAINT "presence_checks_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "presence_checks_congress_day_idx" ON "presence_checks" USING btree ("congress_id","day");--> statement-breakpoint
ALTER TABLE "congresses" ADD CONSTRAINT "congresses_required_percent_range" CHECK ("congresses"."required_percent" BETWEEN 1 AND 100);--> statement-breakpoint
ALTER TABLE "congresses" ADD CONSTRAINT "congresses_presence_checks_range" CHECK ("congresses"."presence_checks_per_day" BETWEEN 0 AND 10 AND "congresses"."presence_checks_required" BETWEEN 0 AND "congresses"."presence_checks_per_day");--> statement-breakpoint
ALTER TABLE "congresses" ADD CONSTRAINT "congresses_points_per_day_range" CHECK ("congresses"."points_per_day" IS NULL OR "congresses"."points_per_day" BETWEEN 0 AND 100);--> statement-breakpoint
ALTER TABLE "congresses" ADD CONSTRAINT "congresses_webinar_minutes_range" CHECK ("congresses"."webinar_minutes" IS NULL OR "congresses"."webinar_minutes" BETWEEN 1 AND 1440);