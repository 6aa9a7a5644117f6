CREATE TABLE "package_unlocks" (
	"user_id" integer NOT NULL,
	"congress_package_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "package_unlocks_user_id_congress_package_id_pk" PRIMARY KEY("user_id","congress_package_id")
);
--> statement-breakpoint
CREATE TABLE "video_previews" (
	"key" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"title" text,
	"thumbnail" "bytea",
	"thumbnail_type" text,
	"failed_at" timestamp with time zone,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "package_unlocks" ADD CONSTRAINT "package_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_unlocks" ADD CONSTRAINT "package_unlocks_congress_package_id_congress_packages_id_fk" FOREIGN KEY ("congress_package_id") REFERENCES "public"."congress_packages"("id") ON DELETE cascade ON UPDATE no action;