CREATE TABLE "watch_clocks" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL,
	"wall" "int4multirange" DEFAULT '{}' NOT NULL,
	CONSTRAINT "watch_clocks_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "video_previews" ADD COLUMN "live" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_clocks" ADD CONSTRAINT "watch_clocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_clocks_day_idx" ON "watch_clocks" USING btree ("day");