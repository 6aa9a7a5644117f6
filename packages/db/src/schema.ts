import { type SQL, sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });
/** PostgreSQL's int4multirange in its text form, e.g. `{[0,60),[120,180)}`: sets of whole seconds. */
const int4multirange = customType<{ data: string }>({ dataType: () => "int4multirange" });

/** Days of a congress content (spec section 3). The old `vimeo` form also carries videoCodes, packages, appId. */
export interface ContentVideo {
  url: string;
  comment: string;
  /** the organiser's length in whole seconds (ADR 0105): counts before Vimeo's, which private videos lack */
  duration?: number;
  /** the organiser marks a live stream (ADR 0126): credited by the clock whatever its length; stored only true */
  live?: boolean;
}
export interface ContentDay {
  name: string;
  /** DD.MM.YYYY; empty = visible during the whole congress */
  exclusive_date: string;
  videos: ContentVideo[];
  videoCodes?: string[];
  packages?: unknown[];
  appId?: string;
}
export interface ContentData {
  days: ContentDay[];
}

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    firstname: text("firstname").notNull(),
    lastname: text("lastname").notNull(),
    /** argon2id; null for a migrated account that has not set a password yet */
    passwordHash: text("password_hash"),
    roles: text("roles").array().notNull().default(sql`ARRAY['ROLE_USER']::text[]`),
    /** Derived from roles so the two can never disagree. */
    admin: boolean("admin")
      .notNull()
      .generatedAlwaysAs((): SQL => sql`'ROLE_ADMIN' = ANY(${users.roles})`),
    /** false until the e-mail address is confirmed; admins can switch it off */
    active: boolean("active").notNull().default(false),
    newsletter: boolean("newsletter").notNull().default(false),
    newsletterConsentAt: timestamp("newsletter_consent_at", { withTimezone: true }),
    migrationHash: text("migration_hash"),
    /** The id handed to the checkout in `custom` (uid-...). Random, never the database id. */
    digistoreHash: text("digistore_hash").notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    emailConfirmedAt: timestamp("email_confirmed_at", { withTimezone: true }),
    /**
     * Set when the owner deleted an account that has orders: the row stays, without personal data, so the
     * orders the law makes us keep still have their customer number (ADR 0037).
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** base32 TOTP secret of an admin's authenticator app; set during setup, active once totpEnabledAt is set */
    totpSecret: text("totp_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /**
     * Raised whenever every session of the account must end (password set, two-factor login switched,
     * account switched off). Access tokens carry the version they were issued under; an older one is refused.
     */
    sessionVersion: integer("session_version").notNull().default(0),
    /** Einheitliche Fortbildungsnummer (ADR 0112): 15 digits, the last a Luhn check digit; optional */
    efn: text("efn"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`),
    uniqueIndex("users_digistore_hash_uq").on(t.digistoreHash),
    // admin filter "first plus last name contains" and "e-mail contains" (pg_trgm, see migration 0000)
    index("users_fullname_trgm_idx").using(
      "gin",
      sql`lower(${t.firstname} || ' ' || ${t.lastname}) gin_trgm_ops`,
    ),
    index("users_email_trgm_idx").using("gin", sql`lower(${t.email}) gin_trgm_ops`),
    // the dashboard's registrations per day
    index("users_created_idx").on(t.createdAt),
    check("users_roles_known", sql`${t.roles} <@ ARRAY['ROLE_USER','ROLE_ADMIN']::text[]`),
    check("users_efn_format", sql`${t.efn} IS NULL OR ${t.efn} ~ '^[0-9]{15}$'`),
  ],
);

export const congresses = pgTable(
  "congresses",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** File name under the uploaded images store (table images) */
    picture: text("picture"),
    webinar: boolean("webinar").notNull().default(false),
    webinarUrl: text("webinar_url"),
    /** HH:MM */
    webinarStartTime: text("webinar_start_time"),
    visible: boolean("visible").notNull().default(false),
    firstDay: date("first_day", { mode: "string" }).notNull(),
    /** null = one-day event */
    lastDay: date("last_day", { mode: "string" }),
    digistoreIdTicket: integer("digistore_id_ticket").notNull().default(0),
    digistoreIdTicketAndPackage: integer("digistore_id_ticket_and_package").notNull().default(0),
    extraParameters: jsonb("extra_parameters").$type<Record<string, string>>().notNull().default({}),
    /**
     * Fortbildung (ADR 0105): whether the event awards points and how a participant reaches a day. The rule
     * itself is `dayOutcome` in @app/shared (fortbildung.ts).
     */
    fortbildung: boolean("fortbildung").notNull().default(false),
    /** Veranstaltungsnummer as the chamber assigned it */
    vnr: text("vnr"),
    /** the chamber's category, e.g. "A" or "I" */
    fortbildungCategory: text("fortbildung_category"),
    /** points of a day as the organiser set them; null: 1 per 45 full minutes of the day's content */
    pointsPerDay: integer("points_per_day"),
    /** the share of a day's content duration to attend, in percent */
    requiredPercent: integer("required_percent").notNull().default(80),
    /** presence checks asked per day and participant; 0: none */
    presenceChecksPerDay: integer("presence_checks_per_day").notNull().default(0),
    /** presence checks a participant must pass per day (at most those asked) */
    presenceChecksRequired: integer("presence_checks_required").notNull().default(0),
    /** the webinar's scheduled length in minutes: a webinar day's content duration */
    webinarMinutes: integer("webinar_minutes"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("congresses_visible_days_idx").on(t.visible, t.firstDay, t.lastDay),
    check("congresses_required_percent_range", sql`${t.requiredPercent} BETWEEN 1 AND 100`),
    check(
      "congresses_presence_checks_range",
      sql`${t.presenceChecksPerDay} BETWEEN 0 AND 10 AND ${t.presenceChecksRequired} BETWEEN 0 AND ${t.presenceChecksPerDay}`,
    ),
    check(
      "congresses_points_per_day_range",
      sql`${t.pointsPerDay} IS NULL OR ${t.pointsPerDay} BETWEEN 0 AND 100`,
    ),
    check(
      "congresses_webinar_minutes_range",
      sql`${t.webinarMinutes} IS NULL OR ${t.webinarMinutes} BETWEEN 1 AND 1440`,
    ),
    check("congresses_days_ordered", sql`${t.lastDay} IS NULL OR ${t.lastDay} >= ${t.firstDay}`),
    check(
      "congresses_webinar_start_time_format",
      sql`${t.webinarStartTime} IS NULL OR ${t.webinarStartTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`,
    ),
    check(
      "congresses_checkout_ids_not_negative",
      sql`${t.digistoreIdTicket} >= 0 AND ${t.digistoreIdTicketAndPackage} >= 0`,
    ),
  ],
);

export const congressContents = pgTable(
  "congress_contents",
  {
    id: serial("id").primaryKey(),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["vimeo", "vimeo-url"] })
      .notNull()
      .default("vimeo-url"),
    data: jsonb("data").$type<ContentData>().notNull().default({ days: [] }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("congress_contents_congress_idx").on(t.congressId),
    check("congress_contents_type_known", sql`${t.type} IN ('vimeo', 'vimeo-url')`),
  ],
);

export const participations = pgTable(
  "participations",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("participations_user_congress_uq").on(t.userId, t.congressId),
    index("participations_congress_idx").on(t.congressId),
  ],
);

export const congressPackages = pgTable(
  "congress_packages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    picture: text("picture"),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    /** checkout product id */
    externalId: integer("external_id").notNull(),
    availabilityDate: date("availability_date", { mode: "string" }),
    /** voucher, crosssellDescription, crosssellLink; other keys are passed on to the checkout */
    extraParameters: jsonb("extra_parameters").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("congress_packages_congress_idx").on(t.congressId),
    index("congress_packages_external_idx").on(t.externalId),
    check("congress_packages_external_id_positive", sql`${t.externalId} > 0`),
  ],
);

const orderColumns = () => ({
  id: serial("id").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  /** order number of the checkout provider, or FAKE-ORDER for orders created by an admin */
  externalId: text("external_id").notNull(),
  /** paid or canceled; see @app/shared ORDER_STATUSES */
  status: text("status").notNull(),
  /** why a canceled order gives no access (refund, chargeback, denial; @app/shared END_REASONS) */
  endReason: text("end_reason"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const congressPackageOrders = pgTable(
  "congress_package_orders",
  {
    ...orderColumns(),
    congressPackageId: integer("congress_package_id")
      .notNull()
      .references(() => congressPackages.id, { onDelete: "restrict" }),
  },
  (t) => [
    index("package_orders_user_package_idx").on(t.userId, t.congressPackageId),
    index("package_orders_package_idx").on(t.congressPackageId),
    // the admin list's `ORDER BY created_at DESC, id DESC` means NULLS FIRST; drizzle's plain .desc() writes
    // NULLS LAST, an order the planner cannot read this index in (it sorted the whole table instead)
    index("package_orders_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("package_orders_external_idx").on(t.externalId),
    // admin search "order number, any case"
    index("package_orders_external_lower_idx").on(sql`lower(${t.externalId})`),
    // one order per checkout order and product; admin-created orders all share FAKE-ORDER
    uniqueIndex("package_orders_external_package_uq")
      .on(t.externalId, t.congressPackageId)
      .where(sql`${t.externalId} <> 'FAKE-ORDER'`),
  ],
);

export const congressTicketOrders = pgTable(
  "congress_ticket_orders",
  {
    ...orderColumns(),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "restrict" }),
  },
  (t) => [
    index("ticket_orders_user_congress_idx").on(t.userId, t.congressId),
    index("ticket_orders_congress_idx").on(t.congressId),
    index("ticket_orders_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("ticket_orders_external_idx").on(t.externalId),
    index("ticket_orders_external_lower_idx").on(sql`lower(${t.externalId})`),
    uniqueIndex("ticket_orders_external_congress_uq")
      .on(t.externalId, t.congressId)
      .where(sql`${t.externalId} <> 'FAKE-ORDER'`),
  ],
);

export const mailTemplates = pgTable(
  "mail_templates",
  {
    id: serial("id").primaryKey(),
    /** internal name, e.g. registration-confirmation */
    name: text("name").notNull(),
    /** internal description (HTML) */
    description: text("description").notNull().default(""),
    subject: text("subject").notNull(),
    content: text("content").notNull(),
    /** null = general template */
    congressId: integer("congress_id").references(() => congresses.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // NULLS NOT DISTINCT: only one general template per name
    unique("mail_templates_name_congress_uq").on(t.name, t.congressId).nullsNotDistinct(),
    index("mail_templates_congress_idx").on(t.congressId),
  ],
);

/** Uploaded pictures, kept in PostgreSQL so every API instance serves the same files. */
export const images = pgTable("images", {
  id: serial("id").primaryKey(),
  /** stable file name used in URLs, e.g. 3f2a...c1.webp */
  fileName: text("file_name").notNull().unique(),
  mimeType: text("mime_type").notNull(),
  byteSize: integer("byte_size").notNull(),
  sha256: text("sha256").notNull(),
  data: bytea("data").notNull(),
  createdAt: createdAt(),
});

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** sha256 of the opaque token; the token itself is never stored */
    tokenHash: text("token_hash").notNull().unique(),
    /** all tokens of one login share a family; reuse of a rotated token revokes the family */
    familyId: text("family_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("refresh_tokens_user_idx").on(t.userId),
    index("refresh_tokens_family_idx").on(t.familyId),
    index("refresh_tokens_expires_idx").on(t.expiresAt),
  ],
);

const singlePurposeTokenColumns = () => ({
  id: bigserial("id", { mode: "number" }).primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});

export const passwordResetTokens = pgTable("password_reset_tokens", singlePurposeTokenColumns(), (t) => [
  index("password_reset_tokens_user_idx").on(t.userId),
]);

/**
 * One-time sign-in links by mail (ADR 0091): 15 minutes, one use, spent with every session of the
 * account (a new password, a two-factor switch, deactivation).
 */
export const signInLinks = pgTable("sign_in_links", singlePurposeTokenColumns(), (t) => [
  index("sign_in_links_user_idx").on(t.userId),
]);

export const emailConfirmationTokens = pgTable(
  "email_confirmation_tokens",
  singlePurposeTokenColumns(),
  (t) => [index("email_confirmation_tokens_user_idx").on(t.userId)],
);

/** Every payment notification received, verified or not, kept for the admins and for idempotency. */
export const paymentNotifications = pgTable(
  "payment_notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    event: text("event").notNull(),
    orderId: text("order_id"),
    productId: text("product_id"),
    custom: text("custom"),
    signatureValid: boolean("signature_valid").notNull(),
    /** processed, recorded, ignored, conflict (PAYMENT_OUTCOMES); older rows: received, failed */
    outcome: text("outcome").notNull().default("received"),
    outcomeDetail: text("outcome_detail"),
    payload: jsonb("payload").$type<Record<string, string>>().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    index("payment_notifications_order_idx").on(t.orderId, t.event),
    index("payment_notifications_received_idx").on(
      t.receivedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // the support view's filters (services/admin/payment-notifications.ts uses the same expressions)
    index("payment_notifications_order_lower_idx").on(sql`lower(${t.orderId})`),
    index("payment_notifications_outcome_received_idx").on(t.outcome, t.receivedAt.desc().nullsFirst()),
    index("payment_notifications_email_trgm_idx").using(
      "gin",
      sql`lower(coalesce(${t.payload}->>'email', '') || ' ' || coalesce(${t.payload}->>'buyer_email', '')) gin_trgm_ops`,
    ),
    index("payment_notifications_custom_uid_idx").on(
      sql`substring(${t.custom} from '(?:^|[|]) *uid-([A-Za-z0-9-]+)')`,
    ),
  ],
);

/**
 * Every mail the product sends, written in the same transaction as the change that causes it. The pg-boss
 * job only carries the id; the unique idempotency key makes a repeated cause produce one mail.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    templateName: text("template_name").notNull(),
    congressId: integer("congress_id").references(() => congresses.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    toEmail: text("to_email").notNull(),
    variables: jsonb("variables").$type<Record<string, unknown>>().notNull().default({}),
    /** queued, sent, failed */
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_outbox_status_idx").on(t.status, t.createdAt),
    // deleting a user cascades here; without it every delete scans the whole outbox
    index("mail_outbox_user_idx").on(t.userId),
    // the dashboard's "sent today"
    index("mail_outbox_sent_idx").on(t.sentAt),
    // the admin's outbox list, newest first, all or by template (NULLS FIRST matches `ORDER BY … DESC`)
    index("mail_outbox_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("mail_outbox_template_created_idx").on(t.templateName, t.createdAt.desc().nullsFirst()),
  ],
);

/** Fixed-window request counters shared by every API instance. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

/**
 * Access to a password-gated package granted after the right password (ADR 0019): the visitor enters the
 * password once and then watches on the normal package page.
 */
export const packageUnlocks = pgTable(
  "package_unlocks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    congressPackageId: integer("congress_package_id")
      .notNull()
      .references(() => congressPackages.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.congressPackageId] })],
);

/** Title and thumbnail of a video from the video host's oEmbed endpoint, fetched once and served by us. */
export const videoPreviews = pgTable("video_previews", {
  /** sha256 of the URL, used in the thumbnail's address */
  key: text("key").primaryKey(),
  /** the video's URL as stored in the content */
  url: text("url").notNull(),
  title: text("title"),
  /** whole seconds from the oEmbed answer; null for a live stream (Vimeo says 0) or when not known */
  durationSeconds: integer("duration_seconds"),
  /** Vimeo says it is a live stream (oEmbed `duration` 0): credited by the clock, not by positions */
  live: boolean("live").notNull().default(false),
  thumbnail: bytea("thumbnail"),
  thumbnailType: text("thumbnail_type"),
  /** when the host could not be reached; retried after a while */
  failedAt: timestamp("failed_at", { withTimezone: true }),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every consent given or withdrawn (privacy policy at registration, newsletter at registration or in the
 * profile), never updated: the history is the proof. Deleted with the account.
 */
export const consentRecords = pgTable(
  "consent_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** privacy-policy or newsletter; see @app/shared CONSENT_KINDS */
    kind: text("kind").notNull(),
    granted: boolean("granted").notNull(),
    /** registration or profile */
    source: text("source").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("consent_records_user_idx").on(t.userId, t.createdAt)],
);

/** The legal pages (Datenschutz, Impressum, Erklärung zur Barrierefreiheit) as admins wrote them. */
export const legalPages = pgTable("legal_pages", {
  /** datenschutz, impressum or barrierefreiheit; see @app/shared LEGAL_PAGES */
  slug: text("slug").primaryKey(),
  /** sanitised HTML */
  html: text("html").notNull(),
  updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/** Single-use recovery codes of an admin's two-factor login (stored hashed). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** sha256 of the code */
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/**
 * Who attended an online event: one row per user, event and day (Europe/Berlin), written when the visitor
 * opens a video after the consent click or the webinar link; repeated opens change nothing.
 */
export const attendances = pgTable(
  "attendances",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** video or webinar: what was opened first that day */
    source: text("source").notNull(),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.congressId, t.day] }),
    index("attendances_congress_day_idx").on(t.congressId, t.day),
  ],
);

/**
 * Watch time for Fortbildung (ADR 0104): per user, event, Berlin day and video the seconds that
 * count. `played` is the set of positions credited so far (media seconds of a recording; seconds since
 * Berlin midnight for a live stream or a webinar report), so a replay, a seek back or a second tab adds
 * nothing; `seconds` is its size. `lastBeatAt` bounds the next heartbeat's credit by the wall-clock time
 * since this one. Deleted with the account or the event.
 */
export const watchTime = pgTable(
  "watch_time",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** sha256 of the video's URL (as video_previews.key), or `webinar` for the event's webinar */
    videoKey: text("video_key").notNull(),
    /** the package page the recording was watched on; null on the event page */
    packageId: integer("package_id").references(() => congressPackages.id, { onDelete: "set null" }),
    /** `player` (heartbeats) or `report` (an imported participant report) */
    source: text("source").notNull(),
    played: int4multirange("played").notNull().default("{}"),
    seconds: integer("seconds").notNull().default(0),
    lastBeatAt: timestamp("last_beat_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.congressId, t.day, t.videoKey, t.source] }),
    index("watch_time_congress_day_idx").on(t.congressId, t.day),
    check("watch_time_source_known", sql`${t.source} IN ('player', 'report')`),
    check("watch_time_seconds_not_negative", sql`${t.seconds} >= 0`),
  ],
);

/**
 * A person's clock of one Berlin day (ADR 0126): the wall-clock time their heartbeats may credit, over
 * every video, event, tab and device together. `lastBeatAt` is the clock: the latest heartbeat that reported
 * playing, less what it left unspent (ADR 0149); `granted` the seconds the last heartbeat could credit (its
 * wall-clock time since the clock, at most one interval); `wall` the wall-clock stretches (elapsed seconds since
 * Berlin midnight) the heartbeats spent, which bound the day's credit together with an imported participant
 * report. Kept two days.
 */
export const watchClocks = pgTable(
  "watch_clocks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    lastBeatAt: timestamp("last_beat_at", { withTimezone: true }).notNull(),
    granted: integer("granted").notNull().default(0),
    wall: int4multirange("wall").notNull().default("{}"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("watch_clocks_day_idx").on(t.day)],
);

/**
 * Presence checks (ADR 0109): per participant, event and Berlin day the moments the server drew, as the
 * participant's credited watch seconds of that day at which "Sind Sie noch da?" is asked (so they cannot be
 * known in advance and come only while watching). Passed when answered within 120 s of being asked.
 * Deleted with the account or the event.
 */
export const presenceChecks = pgTable(
  "presence_checks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** 1 … presence_checks_per_day */
    seq: integer("seq").notNull(),
    /** ask once the participant's credited seconds of the day reach this */
    dueAtSeconds: integer("due_at_seconds").notNull(),
    askedAt: timestamp("asked_at", { withTimezone: true }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.congressId, t.day, t.seq] }),
    index("presence_checks_congress_day_idx").on(t.congressId, t.day),
    check("presence_checks_due_not_negative", sql`${t.dueAtSeconds} >= 0`),
  ],
);

/**
 * Every admin write and every payment notification: who, when, what and the changed fields. Only ever
 * inserted; nothing in the product updates or deletes an entry (the actor becomes null when the admin's
 * account is deleted).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** the admin; null for payment notifications and system jobs, or once the admin's account is deleted */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** admin, payment-notification or system */
    actorKind: text("actor_kind").notNull(),
    /** e.g. congress.save, user.delete, order.create, template.copy, ipn.payment */
    action: text("action").notNull(),
    /** congress, package, content, user, order, mail-template, legal-page, payment-notification */
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    /** changed fields: { field: [before, after] }; for creations only the new values */
    changes: jsonb("changes").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_entity_idx").on(t.entity, t.entityId),
    // the Protokoll tab filtered by entity or action, newest first
    index("audit_log_entity_at_idx").on(t.entity, t.at.desc().nullsFirst()),
    index("audit_log_action_at_idx").on(t.action, t.at.desc().nullsFirst()),
    index("audit_log_actor_idx").on(t.actorId),
  ],
);

/** The organiser as the certificates name it (ADR 0115): one row (id 1), set by admins. */
export const certificateIssuer = pgTable(
  "certificate_issuer",
  {
    id: integer("id").primaryKey().default(1),
    name: text("name").notNull().default(""),
    /** postal address, one line per line */
    address: text("address").notNull().default(""),
    /** file names under the uploaded images (table images) */
    logo: text("logo"),
    signature: text("signature"),
    /** who signs, printed under the signature */
    signatory: text("signatory").notNull().default(""),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [check("certificate_issuer_single_row", sql`${t.id} = 1`)],
);

/**
 * Learning-success checks for recordings (ADR 0119): per package, or per day of its recordings, the
 * multiple-choice questions a buyer answers to have the recording count. Deleted with the package.
 */
export const learningChecks = pgTable(
  "learning_checks",
  {
    id: serial("id").primaryKey(),
    packageId: integer("package_id")
      .notNull()
      .references(() => congressPackages.id, { onDelete: "cascade" }),
    /** the recording day (Berlin) the check covers; null: the whole package */
    day: date("day", { mode: "string" }),
    /** the share of correct answers that passes, in percent */
    passPercent: integer("pass_percent").notNull().default(70),
    /** the chamber's category of the recording's certificate (e.g. self-study) */
    category: text("category"),
    /**
     * the recording's own Veranstaltungsnummer (a measure of its own, not the live event's): 19 digits;
     * null: none yet
     */
    vnr: text("vnr"),
    /** points the recording's certificate names; null: as the event's days */
    points: integer("points"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("learning_checks_package_day_uq").on(
      t.packageId,
      sql`coalesce(${t.day}, '0001-01-01'::date)`,
    ),
    check("learning_checks_pass_percent_range", sql`${t.passPercent} BETWEEN 1 AND 100`),
    check("learning_checks_points_range", sql`${t.points} IS NULL OR ${t.points} BETWEEN 0 AND 100`),
    check("learning_checks_vnr_digits", sql`${t.vnr} ~ '^[0-9]{19}$'`),
  ],
);

export interface LearningCheckAnswer {
  text: string;
  correct: boolean;
}

export const learningCheckQuestions = pgTable(
  "learning_check_questions",
  {
    id: serial("id").primaryKey(),
    checkId: integer("check_id")
      .notNull()
      .references(() => learningChecks.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    question: text("question").notNull(),
    /** 3 to 5 answers, one or more correct; never sent to a participant before their attempt is submitted */
    answers: jsonb("answers").$type<LearningCheckAnswer[]>().notNull(),
    /** shown with the result */
    explanation: text("explanation").notNull().default(""),
  },
  (t) => [index("learning_check_questions_check_idx").on(t.checkId, t.position)],
);

/** One participant's attempt: what was shown in which order, what they chose, and the result. */
export const learningCheckAttempts = pgTable(
  "learning_check_attempts",
  {
    id: serial("id").primaryKey(),
    checkId: integer("check_id")
      .notNull()
      .references(() => learningChecks.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** the questions as shown: `[{ questionId, answerOrder }]`, answers by their stored index */
    shown: jsonb("shown").$type<Array<{ questionId: number; answerOrder: number[] }>>().notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    /** the chosen answers per question id, by their stored index */
    chosen: jsonb("chosen").$type<Record<string, number[]>>(),
    scorePercent: integer("score_percent"),
    passed: boolean("passed"),
  },
  (t) => [
    index("learning_check_attempts_user_idx").on(t.userId, t.checkId),
    // one open attempt per person and check: two starts at once (a double click, a second tab) get the same one
    uniqueIndex("learning_check_attempts_open_uq")
      .on(t.userId, t.checkId)
      .where(sql`${t.submittedAt} IS NULL`),
  ],
);

/**
 * Teilnahmebescheinigungen (ADR 0116): an event's (the days a participant reached, Fortbildung I) or a
 * recording's (its learning check passed). `facts` holds exactly what the PDF and the verification page
 * show, frozen when issued; the PDF is made from them whenever it is asked for. The verification code is
 * never stored, only its hash. A re-issue revokes the old row and points it to the new one. Deleted with
 * the account (then the code verifies as unknown) or the event.
 */
export const certificates = pgTable(
  "certificates",
  {
    id: serial("id").primaryKey(),
    /** printed on the certificate, e.g. 2026-000123 */
    number: text("number").notNull().unique(),
    /** sha256 (hex) of the verification code */
    codeHash: text("code_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    congressId: integer("congress_id")
      .notNull()
      .references(() => congresses.id, { onDelete: "cascade" }),
    /** `event` or `recording` */
    kind: text("kind").notNull(),
    /** a recording's certificate: the check passed (null once the check is deleted) */
    learningCheckId: integer("learning_check_id").references(() => learningChecks.id, {
      onDelete: "set null",
    }),
    facts: jsonb("facts").$type<Record<string, unknown>>().notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
    revokedBy: integer("revoked_by").references(() => users.id, { onDelete: "set null" }),
    /** the certificate a re-issue made in this one's place */
    replacedBy: integer("replaced_by"),
    /** when the delivery job queued its mail (the job's mark that it is done) */
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
  },
  (t) => [
    check("certificates_kind_known", sql`${t.kind} IN ('event', 'recording')`),
    uniqueIndex("certificates_event_current_uq")
      .on(t.userId, t.congressId)
      .where(sql`${t.kind} = 'event' AND ${t.revokedAt} IS NULL`),
    uniqueIndex("certificates_recording_current_uq")
      .on(t.userId, t.learningCheckId)
      .where(sql`${t.kind} = 'recording' AND ${t.revokedAt} IS NULL`),
    index("certificates_user_idx").on(t.userId),
    index("certificates_congress_idx").on(t.congressId),
  ],
);
