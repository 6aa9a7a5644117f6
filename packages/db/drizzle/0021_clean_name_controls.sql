-- Names hold no control or format characters (the name rule of packages/shared person-name.ts refuses them
-- from now on): a bell, a text-direction override or isolate (U+202A-U+202E, U+2066-U+2069), a mark like
-- U+200E stored before reached the certificate, the CSV exports and the mails. They are taken out of the
-- users' names and of the name frozen in a certificate's facts (it changes no letter: the certificate keeps
-- its number and code), each change logged in the audit log without the name (as the log does, ADR 0037).
-- Tabs and line breaks become a space; the control (Cc) and format (Cf) characters as Unicode lists them.
CREATE FUNCTION pg_temp.name_controls() RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT '[\u0001-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\U000110BD\U000110CD\U00013430-\U0001343F\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0001\U000E0020-\U000E007F]'
$$;--> statement-breakpoint
CREATE FUNCTION pg_temp.name_without_controls(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT btrim(regexp_replace(
    regexp_replace(regexp_replace(name, '[\u0009-\u000D\u0085]', ' ', 'g'), pg_temp.name_controls(), '', 'g'),
    ' {2,}', ' ', 'g'))
$$;--> statement-breakpoint
-- "U+202E, U+0007": the characters taken out, in the order they first stood in the name
CREATE FUNCTION pg_temp.name_controls_in(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(format('U+%s', upper(lpad(to_hex(ascii(c)), 4, '0'))), ', ' ORDER BY first)
  FROM (
    SELECT m[1] AS c, min(n) AS first
    FROM regexp_matches(name, '(' || pg_temp.name_controls() || ')', 'g') WITH ORDINALITY AS found(m, n)
    GROUP BY m[1]
  ) controls
$$;--> statement-breakpoint
DO $$
DECLARE
  accounts integer;
  certificates integer;
BEGIN
  WITH dirty AS (
    SELECT id, firstname, lastname FROM users
    WHERE firstname ~ pg_temp.name_controls() OR lastname ~ pg_temp.name_controls()
  ), cleaned AS (
    UPDATE users u
       SET firstname = pg_temp.name_without_controls(d.firstname),
           lastname = pg_temp.name_without_controls(d.lastname)
      FROM dirty d
     WHERE u.id = d.id
    RETURNING u.id, d.firstname AS old_first, d.lastname AS old_last, u.firstname AS new_first, u.lastname AS new_last
  )
  INSERT INTO audit_log (actor_kind, action, entity, entity_id, changes)
  SELECT 'system', 'user.name-cleaned', 'user', id::text, jsonb_strip_nulls(jsonb_build_object(
    'firstname', CASE WHEN old_first <> new_first THEN jsonb_build_array('***', CASE WHEN new_first = '' THEN '' ELSE '***' END) END,
    'lastname', CASE WHEN old_last <> new_last THEN jsonb_build_array('***', CASE WHEN new_last = '' THEN '' ELSE '***' END) END,
    'removedCharacters', pg_temp.name_controls_in(old_first || old_last)))
  FROM cleaned
  ORDER BY id;
  GET DIAGNOSTICS accounts = ROW_COUNT;

  WITH dirty AS (
    SELECT id, facts -> 'participant' ->> 'name' AS name FROM certificates
    WHERE facts -> 'participant' ->> 'name' ~ pg_temp.name_controls()
  ), cleaned AS (
    UPDATE certificates c
       SET facts = jsonb_set(c.facts, '{participant,name}', to_jsonb(pg_temp.name_without_controls(d.name)))
      FROM dirty d
     WHERE c.id = d.id
    RETURNING c.id, d.name AS old_name
  )
  INSERT INTO audit_log (actor_kind, action, entity, entity_id, changes)
  SELECT 'system', 'certificate.name-cleaned', 'certificate', id::text, jsonb_build_object(
    'name', jsonb_build_array('***', '***'),
    'removedCharacters', pg_temp.name_controls_in(old_name))
  FROM cleaned
  ORDER BY id;
  GET DIAGNOSTICS certificates = ROW_COUNT;

  RAISE NOTICE 'Steuer- und Formatzeichen aus Namen entfernt: % Konten, % Bescheinigungen (Protokoll: "Steuerzeichen aus dem Namen entfernt")', accounts, certificates;
END
$$;--> statement-breakpoint
DROP FUNCTION pg_temp.name_controls_in(text);--> statement-breakpoint
DROP FUNCTION pg_temp.name_without_controls(text);--> statement-breakpoint
DROP FUNCTION pg_temp.name_controls();
