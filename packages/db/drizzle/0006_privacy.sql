CREATE TABLE "consent_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"granted" boolean NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_pages" (
	"slug" text PRIMARY KEY NOT NULL,
	"html" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_pages" ADD CONSTRAINT "legal_pages_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_records_user_idx" ON "consent_records" USING btree ("user_id","created_at");--> statement-breakpoint
-- the consents given before the history existed: everybody accepted the privacy policy when registering,
-- and the newsletter consent has its time on the account
INSERT INTO "consent_records" ("user_id", "kind", "granted", "source", "created_at")
SELECT "id", 'privacy-policy', true, 'registration', "created_at" FROM "users";--> statement-breakpoint
INSERT INTO "consent_records" ("user_id", "kind", "granted", "source", "created_at")
SELECT "id", 'newsletter', true, 'registration', coalesce("newsletter_consent_at", "created_at") FROM "users" WHERE "newsletter";
