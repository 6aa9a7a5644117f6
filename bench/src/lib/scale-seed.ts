import { hashPassword } from "@app/db/password";
import type pg from "pg";

/** How much data one scale database holds. */
export interface ScaleSize {
  users: number;
  congresses: number;
  participations: number;
  packageOrders: number;
  ticketOrders: number;
}

export interface SeedStep {
  table: string;
  rows: number;
  seconds: number;
}

/** Every HEAVY_EVERY-th user takes part in HEAVY_PARTICIPATIONS events (the overview's worst case). */
const HEAVY_EVERY = 1000;
export const HEAVY_PARTICIPATIONS = 50;
const PACKAGES_PER_CONGRESS = 2;
/** Every RARE_EVERY-th user gets one of the rare last names, so a name search can match only a few rows. */
const RARE_EVERY = 997;
/** About five years, in minutes: the spread of every created_at. */
const FIVE_YEARS_MIN = 5 * 365 * 24 * 60;

// biome-ignore format: a list of names reads better in rows
const FIRST_NAMES = [
  "Anna", "Lena", "Marie", "Sophie", "Julia", "Laura", "Katharina", "Sabine", "Ursula", "Monika",
  "Thomas", "Michael", "Andreas", "Stefan", "Jürgen", "Klaus", "Lukas", "Felix", "Jonas", "Matthias",
];
// biome-ignore format: a list of names reads better in rows
const LAST_NAMES = [
  "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
  "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann",
];
const RARE_LAST_NAMES = ["Quappendorf", "Zwirbelhuber", "Eichelkraut", "Pfefferkorn", "Wunderlich"];
// biome-ignore format: a list of names reads better in rows
const TOPICS = [
  "Bindung im Alltag", "Trauma und Heilung", "Achtsamkeit", "Paartherapie", "Hochsensibilität",
  "Resilienz", "Tod und Sterben", "Kindheit verstehen", "Selbstwert", "Schlaf und Gesundheit",
];

/** Lower-case ASCII for e-mail addresses (Jürgen Schäfer → juergen.schaefer). */
const asciiLower = (expr: string) =>
  `replace(replace(replace(replace(lower(${expr}), 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'ß', 'ss')`;

/** A deterministic spread of row number `n` over the last five years. */
const spreadOverFiveYears = (n: string) =>
  `now() - ((${n})::bigint * 7919 % ${FIVE_YEARS_MIN}) * interval '1 minute'`;

/** A unique order number per (table, n) that looks like a checkout's: a bijective hash mod 2^32. */
const orderNumber = (prefix: string, n: string) =>
  `'${prefix}' || upper(lpad(to_hex(((${n})::bigint * 2654435761) % 4294967296), 8, '0'))`;

/**
 * The light (non-heavy) users are numbered 0..L-1; this maps such a number `j` to the user id, skipping every
 * HEAVY_EVERY-th id.
 */
const lightUserId = (j: string) => `(${j}) + (${j}) / ${HEAVY_EVERY - 1} + 1`;

/** The k-th event of user `u`: distinct for distinct k below the number of events. */
const congressOf = (u: string, k: string, congresses: number) => `((${u}) * 37 + (${k})) % ${congresses} + 1`;

function usersSql(users: number, passwordHash: string): [string, unknown[]] {
  const first = "($2::text[])[1 + g % cardinality($2::text[])]";
  const common = "($3::text[])[1 + (g / cardinality($2::text[])) % cardinality($3::text[])]";
  const rare = `($4::text[])[1 + (g / ${RARE_EVERY}) % cardinality($4::text[])]`;
  const text = `
    INSERT INTO users (id, email, firstname, lastname, password_hash, migration_hash, roles, active, newsletter,
                       email_confirmed_at, created_at)
    SELECT g, ${asciiLower("f || '.' || l")} || '.' || g || '@example.com', f, l,
           CASE WHEN g % 50 = 0 THEN NULL ELSE $5 END,
           CASE WHEN g % 50 = 0 THEN md5('migrated' || g) END,
           CASE WHEN g <= 3 THEN ARRAY['ROLE_USER', 'ROLE_ADMIN'] ELSE ARRAY['ROLE_USER'] END,
           g % 40 <> 39, g % 3 = 0, ${spreadOverFiveYears("g")}, ${spreadOverFiveYears("g")}
    FROM generate_series(1, $1::int) AS g,
         LATERAL (SELECT ${first} AS f, CASE WHEN g % ${RARE_EVERY} = 0 THEN ${rare} ELSE ${common} END AS l) AS n`;
  return [text, [users, FIRST_NAMES, LAST_NAMES, RARE_LAST_NAMES, passwordHash]];
}

/** Events spread from five years ago to half a year ahead; newer ids start later (and were created later). */
function congressesSql(congresses: number): [string, unknown[]] {
  const firstDay = `current_date - 1825 + ((g - 1) * 2005 / ${congresses})::int`;
  const text = `
    INSERT INTO congresses (id, title, description, visible, first_day, last_day, webinar,
                            digistore_id_ticket, digistore_id_ticket_and_package, created_at)
    SELECT g, ($1::text[])[1 + g % cardinality($1::text[])] || ' ' || g, 'Ein Online-Kongress mit Vorträgen.',
           g % 10 <> 0, d, CASE WHEN g % 3 = 0 THEN NULL ELSE d + g % 3 END, g % 7 = 0,
           CASE WHEN g % 4 = 0 THEN 500000 + g ELSE 0 END, CASE WHEN g % 4 = 0 THEN 600000 + g ELSE 0 END,
           d - interval '90 days'
    FROM generate_series(1, ${congresses}) AS g, LATERAL (SELECT ${firstDay} AS d) AS f`;
  return [text, [TOPICS]];
}

function packagesSql(congresses: number): [string, unknown[]] {
  const text = `
    INSERT INTO congress_packages (id, name, description, congress_id, external_id, availability_date, created_at)
    SELECT g, CASE WHEN g % 2 = 0 THEN 'Aufzeichnungen ' ELSE 'Premium-Paket ' END || c.title,
           'Alle Vorträge zum Nachschauen.', c.id, 700000 + g, c.first_day, c.created_at
    FROM generate_series(1, ${congresses * PACKAGES_PER_CONGRESS}) AS g
    JOIN congresses c ON c.id = (g + ${PACKAGES_PER_CONGRESS - 1}) / ${PACKAGES_PER_CONGRESS}`;
  return [text, []];
}

/**
 * Heavy users take part in the 50 newest events (so the overview shows their participations); the rest of
 * the participations go round the light users.
 */
function participationsSql(size: ScaleSize): string[] {
  const heavy = `
    INSERT INTO participations (user_id, congress_id, created_at)
    SELECT u, ${size.congresses} - k, ${spreadOverFiveYears("u + k")}
    FROM generate_series(${HEAVY_EVERY}, ${size.users}, ${HEAVY_EVERY}) AS u,
         generate_series(0, ${HEAVY_PARTICIPATIONS - 1}) AS k`;
  const light = lightUsers(size);
  const rest = size.participations - (size.users / HEAVY_EVERY) * HEAVY_PARTICIPATIONS;
  const lightRows = `
    INSERT INTO participations (user_id, congress_id, created_at)
    SELECT u, ${congressOf("u", `i / ${light}`, size.congresses)}, ${spreadOverFiveYears("i")}
    FROM generate_series(0, ${rest - 1}) AS i, LATERAL (SELECT ${lightUserId(`i % ${light}`)} AS u) AS l`;
  return [heavy, lightRows];
}

const lightUsers = (size: ScaleSize) => size.users - size.users / HEAVY_EVERY;

/** Ticket orders for events the light users take part in; every 11th canceled, every 40th by an admin. */
function ticketOrdersSql(size: ScaleSize): string {
  const light = lightUsers(size);
  return `
    INSERT INTO congress_ticket_orders (user_id, congress_id, external_id, status, created_at)
    SELECT u, ${congressOf("u", `i / ${light}`, size.congresses)},
           CASE WHEN i % 40 = 39 THEN 'FAKE-ORDER' ELSE ${orderNumber("T", "i + 1")} END,
           CASE WHEN i % 11 = 10 THEN 'canceled' ELSE 'paid' END, ${spreadOverFiveYears("i + 3")}
    FROM generate_series(0, ${size.ticketOrders - 1}) AS i, LATERAL (SELECT ${lightUserId(`i % ${light}`)} AS u) AS l`;
}

/** Package orders for a package of an event the user takes part in. */
function packageOrdersSql(size: ScaleSize): string {
  const light = lightUsers(size);
  const packageId = `(${congressOf("u", `i / ${light}`, size.congresses)} - 1) * ${PACKAGES_PER_CONGRESS} + 1 + i % ${PACKAGES_PER_CONGRESS}`;
  return `
    INSERT INTO congress_package_orders (user_id, congress_package_id, external_id, status, created_at)
    SELECT u, ${packageId},
           CASE WHEN i % 40 = 39 THEN 'FAKE-ORDER' ELSE ${orderNumber("P", "i + 1")} END,
           CASE WHEN i % 11 = 10 THEN 'canceled' ELSE 'paid' END, ${spreadOverFiveYears("i + 5")}
    FROM generate_series(0, ${size.packageOrders - 1}) AS i, LATERAL (SELECT ${lightUserId(`i % ${light}`)} AS u) AS l`;
}

/**
 * The outbox keeps every mail sent (one registration mail per user, one per order), and users are deleted
 * with it by cascade: without these rows the delete benchmark would miss that table entirely.
 */
function outboxSql(): string {
  const mail = (key: string, template: string, from: string) =>
    `SELECT ${key}, '${template}', x.user_id, u.email, 'sent', x.created_at, x.created_at ${from}`;
  return `
    INSERT INTO mail_outbox (idempotency_key, template_name, user_id, to_email, status, created_at, sent_at)
    ${mail("'registration:' || u.id", "registration-confirmation", "FROM (SELECT id AS user_id, created_at FROM users) x JOIN users u ON u.id = x.user_id")}
    UNION ALL
    ${mail("'order:tic:' || x.id", "order-ticket", "FROM congress_ticket_orders x JOIN users u ON u.id = x.user_id")}
    UNION ALL
    ${mail("'order:pac:' || x.id", "order-package", "FROM congress_package_orders x JOIN users u ON u.id = x.user_id")}`;
}

async function timed(pool: pg.Pool, table: string, statements: [string, unknown[]][]): Promise<SeedStep> {
  const started = performance.now();
  let rows = 0;
  for (const [text, values] of statements) {
    const result = await pool.query(text, values);
    rows += result.rowCount ?? 0;
  }
  return { table, rows, seconds: (performance.now() - started) / 1000 };
}

function checkSize(size: ScaleSize): void {
  if (size.users % HEAVY_EVERY !== 0 || size.congresses < HEAVY_PARTICIPATIONS) {
    throw new Error(
      `scale seed needs users in steps of ${HEAVY_EVERY} and at least ${HEAVY_PARTICIPATIONS} events`,
    );
  }
  const perLightUser = Math.ceil(
    (size.participations - (size.users / HEAVY_EVERY) * HEAVY_PARTICIPATIONS) / lightUsers(size),
  );
  if (perLightUser > size.congresses) {
    throw new Error("scale seed: more participations per user than events");
  }
}

/**
 * Fills an empty migrated database in bulk, in SQL (INSERT ... SELECT FROM generate_series), and returns the
 * time per table. Ids of users, events and packages are given explicitly (and the sequences moved on) so the
 * generators can refer to them arithmetically.
 */
export async function seedScale(pool: pg.Pool, size: ScaleSize): Promise<SeedStep[]> {
  checkSize(size);
  // one argon2id hash for everybody: hashing per user would only slow the seed down
  const passwordHash = await hashPassword("Scale-Passwort-2026!");
  const noValues = (text: string): [string, unknown[]] => [text, []];
  const steps = [
    await timed(pool, "users", [usersSql(size.users, passwordHash)]),
    await timed(pool, "congresses", [congressesSql(size.congresses)]),
    await timed(pool, "congress_packages", [packagesSql(size.congresses)]),
    await timed(pool, "participations", participationsSql(size).map(noValues)),
    await timed(pool, "congress_package_orders", [noValues(packageOrdersSql(size))]),
    await timed(pool, "congress_ticket_orders", [noValues(ticketOrdersSql(size))]),
    await timed(pool, "mail_outbox", [noValues(outboxSql())]),
  ];
  for (const table of ["users", "congresses", "congress_packages"]) {
    await pool.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
    );
  }
  // VACUUM as well as ANALYZE: it sets the visibility map (index-only scans, as on a settled production
  // database) and keeps autovacuum from starting on the fresh tables in the middle of the measurements
  const vacuum = await timed(pool, "VACUUM (ANALYZE)", [noValues("VACUUM (ANALYZE)")]);
  return [...steps, vacuum];
}
