CREATE TABLE "watch_time" (
	"user_id" integer NOT NULL,
	"congress_id" integer NOT NULL,
	"day" date NOT NULL,
	"video_key" text NOT NULL,
	"package_id" integer,
	"source" text NOT NULL,
	"played" "int4multirange" DEFAULT '{}' NOT NULL,
	"seconds" integer DEFAULT 0 NOT NULL,
	"last_beat_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_time_user_id_congress_id_day_video_key_source_pk" PRIMARY KEY("user_id","congress_id","day","video_key","source"),
	CONSTRAINT "watch_time_source_known" CHECK ("watch_time"."source" IN ('player', 'report')),
	CONSTRAINT "watch_time_seconds_not_negative" CHECK ("watch_time"."seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "video_previews" ADD COLUMN "duration_seconds" integer;--> statement-breakpoint
ALTER TABLE "watch_time" ADD CONSTRAINT "watch_time_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_time" ADD CONSTRAINT "watch_time_congress_id_congresses_id_fk" FOREIGN KEY ("congress_id") REFERENCES "public"."congresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_time" ADD CONSTRAINT "watch_time_package_id_congress_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."congress_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_time_congress_day_idx" ON "watch_time" USING btree ("congress_id","day");--> statement-breakpoint
-- The size of a set of whole seconds.
CREATE FUNCTION multirange_seconds(mr int4multirange) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (SELECT coalesce(sum(upper(r) - lower(r)), 0)::integer FROM unnest(mr) AS r);--> statement-breakpoint
-- The first `budget` seconds of a set of whole seconds, earliest first (what a heartbeat may credit).
CREATE FUNCTION multirange_take(mr int4multirange, budget integer) RETURNS int4multirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (
  SELECT coalesce(range_agg(int4range(lower(r), lower(r) + least(upper(r) - lower(r), budget - before))), '{}')
  FROM (
    SELECT r, coalesce(sum(upper(r) - lower(r)) OVER (ORDER BY lower(r) ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::integer AS before
    FROM unnest(mr) AS r
  ) AS s
  WHERE before < budget
);
