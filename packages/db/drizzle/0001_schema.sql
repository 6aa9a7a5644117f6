CREATE TABLE "congress_contents" (
	"id" serial PRIMARY KEY NOT NULL,
	"congress_id" integer NOT NULL,
	"type" text DEFAULT 'vimeo-url' NOT NULL,
	"data" jsonb DEFAULT '{"days":[]}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "congress_contents_type_known" CHECK ("congress_contents"."type" IN ('vimeo', 'vimeo-url'))
);
--> statement-breakpoint
CREATE TABLE "congress_package_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"congress_package_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "congress_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"picture" text,
	"congress_id" integer NOT NULL,
	"external_id" integer NOT NULL,
	"availability_date" date,
	"extra_parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "congress_packages_external_id_positive" CHECK ("congress_packages"."external_id" > 0)
);
--> statement-breakpoint
CREATE TABLE "congress_ticket_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"congress_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "congresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"picture" text,
	"webinar" boolean DEFAULT false NOT NULL,
	"webinar_url" text,
	"webinar_start_time" text,
	"visible" boolean DEFAULT false NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date,
	"digistore_id_ticket" integer DEFAULT 0 NOT NULL,
	"digistore_id_ticket_and_package" integer DEFAULT 0 NOT NULL,
	"extra_parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "congresses_days_ordered" CHECK ("congresses"."last_day" IS NULL OR "congresses"."last_day" >= "congresses"."first_day"),
	CONSTRAINT "congresses_webinar_start_time_format" CHECK ("congresses"."webinar_start_time" IS NULL OR "congresses"."webinar_start_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "congresses_checkout_ids_not_negative" CHECK ("congresses"."digistore_id_ticket" >= 0 AND "congresses"."digistore_id_ticket_and_package" >= 0)
);
--> statement-breakpoint
CREATE TABLE "email_confirmation_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_confirmation_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_file_name_unique" UNIQUE("file_name")
);
--> statement-breakpoint
CREATE TABLE "mail_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"subject" text NOT NULL,
	"content" text NOT NULL,
	"congress_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_templates_name_congress_uq" UNIQUE NULLS NOT DISTINCT("name","congress_id")
);
--> statement-breakpoint
CREATE TABLE "participations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"congress_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_reset_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "payment_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"order_id" text,
	"product_id" text,
	"custom" text,
	"signature_valid" boolean NOT NULL,
	"outcome" text DEFAULT 'received' NOT NULL,
	"outcome_detail" text,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"family_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"password_hash" text,
	"roles" text[] DEFAULT ARRAY['ROLE_USER']::text[] NOT NULL,
	"admin" boolean GENERATED ALWAYS AS ('ROLE_ADMIN' = ANY("users"."roles")) STORED NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"newsletter" boolean DEFAULT false NOT NULL,
	"newsletter_consent_at" timestamp with time zone,
	"migration_hash" text,
	"digistore_hash" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL,
	"email_confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_roles_known" CHECK ("users"."roles" <@ ARRAY['ROLE_USER','ROLE_ADMIN']::text[])
);
--> statement-breakpoint
ALTER TABLE "congress_contents" ADD CONSTRAINT "congress_contents_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "congress_package_orders" ADD CONSTRAINT "congress_package_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "congress_package_orders" ADD CONSTRAINT "congress_package_orders_congress_package_id_congress_packages_id_fk" FOREIGN KEY ("congress_package_id") REFERENCES "public"."congress_packages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "congress_packages" ADD CONSTRAINT "congress_packages_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "congress_ticket_orders" ADD CONSTRAINT "congress_ticket_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "congress_ticket_orders" ADD CONSTRAINT "congress_ticket_orders_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_confirmation_tokens" ADD CONSTRAINT "email_confirmation_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_templates" ADD CONSTRAINT "mail_templates_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "congress_contents_congress_idx" ON "congress_contents" USING btree ("congress_id");--> statement-breakpoint
CREATE INDEX "package_orders_user_package_idx" ON "congress_package_orders" USING btree ("user_id","congress_package_id");--> statement-breakpoint
CREATE INDEX "package_orders_package_idx" ON "congress_package_orders" USING btree ("congress_package_id");--> statement-breakpoint
CREATE INDEX "package_orders_created_idx" ON "congress_package_orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "package_orders_external_idx" ON "congress_package_orders" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_orders_external_package_uq" ON "congress_package_orders" USING btree ("external_id","congress_package_id") WHERE "congress_package_orders"."external_id" <> 'FAKE-ORDER';--> statement-breakpoint
CREATE INDEX "congress_packages_congress_idx" ON "congress_packages" USING btree ("congress_id");--> statement-breakpoint
CREATE INDEX "congress_packages_external_idx" ON "congress_packages" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "ticket_orders_user_congress_idx" ON "congress_ticket_orders" USING btree ("user_id","congress_id");--> statement-breakpoint
CREATE INDEX "ticket_orders_congress_idx" ON "congress_ticket_orders" USING btree ("congress_id");--> statement-breakpoint
CREATE INDEX "ticket_orders_created_idx" ON "congress_ticket_orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ticket_orders_external_idx" ON "congress_ticket_orders" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_orders_external_congress_uq" ON "congress_ticket_orders" USING btree ("external_id","congress_id") WHERE "congress_ticket_orders"."external_id" <> 'FAKE-ORDER';--> statement-breakpoint
CREATE INDEX "congresses_visible_days_idx" ON "congresses" USING btree ("visible","first_day","last_day");--> statement-breakpoint
CREATE INDEX "email_confirmation_tokens_user_idx" ON "email_confirmation_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mail_templates_congress_idx" ON "mail_templates" USING btree ("congress_id");--> statement-breakpoint
CREATE UNIQUE INDEX "participations_user_congress_uq" ON "participations" USING btree ("user_id","congress_id");--> statement-breakpoint
CREATE INDEX "participations_congress_idx" ON "participations" USING btree ("congress_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payment_notifications_order_idx" ON "payment_notifications" USING btree ("order_id","event");--> statement-breakpoint
CREATE INDEX "payment_notifications_received_idx" ON "payment_notifications" USING btree ("received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_digistore_hash_uq" ON "users" USING btree ("digistore_hash");--> statement-breakpoint
CREATE INDEX "users_fullname_trgm_idx" ON "users" USING gin (lower("firstname" || ' ' || "lastname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin (lower("email") gin_trgm_ops);