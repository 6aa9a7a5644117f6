-- Every change to what a visitor's overview shows is announced on the channel `overview_changed`, so each
-- API instance can drop the answers it keeps (apps/api/src/services/visitor/overview-cache.ts). The payload
-- is a comma-separated list of user ids, or `*` when the change concerns everybody (the event and package
-- lists) or more than 200 visitors at once. Statement-level triggers with transition tables: a bulk insert
-- of a million participations sends one notification, not a million. PostgreSQL delivers notifications only
-- on commit, and drops them with a rolled-back transaction.

CREATE FUNCTION overview_notify_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- the column holding the user id (TG_ARGV[0]): user_id, or id for the users table itself
  ids_sql text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I AS id FROM new_rows', TG_ARGV[0])
    WHEN 'DELETE' THEN format('SELECT %I AS id FROM old_rows', TG_ARGV[0])
    ELSE format('SELECT %1$I AS id FROM new_rows UNION SELECT %1$I FROM old_rows', TG_ARGV[0])
  END;
  affected bigint;
  ids text;
BEGIN
  EXECUTE format(
    'SELECT count(DISTINCT id), string_agg(DISTINCT id::text, '','') FROM (%s) AS changed WHERE id IS NOT NULL',
    ids_sql
  ) INTO affected, ids;
  IF affected > 200 THEN
    PERFORM pg_notify('overview_changed', '*');
  ELSIF affected > 0 THEN
    PERFORM pg_notify('overview_changed', ids);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION overview_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('overview_changed', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  target record;
BEGIN
  -- a trigger with transition tables serves one event, so each table gets three, plus one for TRUNCATE
  FOR target IN
    SELECT * FROM (VALUES
      ('users', 'id'),
      ('participations', 'user_id'),
      ('congress_ticket_orders', 'user_id'),
      ('congress_package_orders', 'user_id'),
      ('package_unlocks', 'user_id'),
      ('attendances', 'user_id')
    ) AS t(tbl, col)
  LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$s_overview_insert AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows
         FOR EACH STATEMENT EXECUTE FUNCTION overview_notify_rows(%2$L)', target.tbl, target.col);
    EXECUTE format(
      'CREATE TRIGGER %1$s_overview_update AFTER UPDATE ON %1$I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
         FOR EACH STATEMENT EXECUTE FUNCTION overview_notify_rows(%2$L)', target.tbl, target.col);
    EXECUTE format(
      'CREATE TRIGGER %1$s_overview_delete AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows
         FOR EACH STATEMENT EXECUTE FUNCTION overview_notify_rows(%2$L)', target.tbl, target.col);
    EXECUTE format(
      'CREATE TRIGGER %1$s_overview_truncate AFTER TRUNCATE ON %1$I
         FOR EACH STATEMENT EXECUTE FUNCTION overview_notify_all()', target.tbl);
  END LOOP;
  -- the event and package lists every overview is made of
  FOR target IN SELECT * FROM (VALUES ('congresses'), ('congress_packages')) AS t(tbl) LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$s_overview_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %1$I
         FOR EACH STATEMENT EXECUTE FUNCTION overview_notify_all()', target.tbl);
  END LOOP;
END $$;
