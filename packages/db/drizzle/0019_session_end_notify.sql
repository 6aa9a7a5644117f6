-- A logout (or a reused refresh token) revokes a refresh-token family; its access tokens must be refused at
-- once on every API instance (ADR 0126). Each instance keeps the accounts' session states, including the
-- ended sessions (the revoked families), and drops them on the channel `overview_changed` (migration 0009):
-- announce the accounts whose revoked families changed. A login or a rotation changes none and is not
-- announced; the retention's deletion of expired revoked rows is.
CREATE FUNCTION refresh_tokens_notify_ended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected bigint;
  ids text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('overview_changed', '*');
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT count(DISTINCT user_id), string_agg(DISTINCT user_id::text, ',') INTO affected, ids
      FROM new_rows WHERE revoked_at IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT count(DISTINCT user_id), string_agg(DISTINCT user_id::text, ',') INTO affected, ids
      FROM old_rows WHERE revoked_at IS NOT NULL;
  ELSE
    SELECT count(DISTINCT n.user_id), string_agg(DISTINCT n.user_id::text, ',') INTO affected, ids
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (o.revoked_at IS NULL) <> (n.revoked_at IS NULL) OR o.family_id <> n.family_id OR o.user_id <> n.user_id;
  END IF;
  IF affected > 200 THEN
    PERFORM pg_notify('overview_changed', '*');
  ELSIF affected > 0 THEN
    PERFORM pg_notify('overview_changed', ids);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_ended_insert AFTER INSERT ON refresh_tokens REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_notify_ended();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_ended_update AFTER UPDATE ON refresh_tokens
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_notify_ended();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_ended_delete AFTER DELETE ON refresh_tokens REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_notify_ended();
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_ended_truncate AFTER TRUNCATE ON refresh_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION refresh_tokens_notify_ended();
