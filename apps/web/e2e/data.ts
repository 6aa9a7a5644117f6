/**
 * Test data made straight in the e2e database (the one `e2e/server.ts` starts the API against) and removed
 * when the test ends, so no test depends on another's data or on the demo seed's rows (ADR 0077).
 * The API's caches hear these writes like any other: the overview's database triggers announce them.
 */
import { createHash } from "node:crypto";
import { createDb, type Db, type DbHandle, embeddedUrl, schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import {
  addDays,
  berlinDate,
  formatGermanDate,
  type IsoDate,
  OVERVIEW_MAX_CONGRESSES,
  OVERVIEW_MAX_PACKAGES,
} from "@app/shared";

/**
 * The overview lists at most OVERVIEW_MAX_CONGRESSES of the visible events that are not over (running ones and
 * the visitor's own first, ADR 0084) and offers the newest packages of visible events (up to
 * OVERVIEW_MAX_PACKAGES with the visitor's own). The seed's events are hidden (e2e/server.ts), so with
 * E2E_WORKERS tests at a time, each may keep this share there without pushing out another's.
 */
const share = (max: number) => Math.floor(max / Number(process.env.E2E_WORKERS ?? 1));

export const e2eDatabaseUrl = () => embeddedUrl(Number(process.env.E2E_PG_PORT), "e2e");

export function connectTestDatabase(): DbHandle {
  return createDb(e2eDatabaseUrl(), { max: 2 });
}

type CongressRow = typeof schema.congresses.$inferInsert;
type PackageRow = typeof schema.congressPackages.$inferInsert;
type ContentDay = schema.ContentDay;
export type OrderStatus = "paid" | "canceled";

export interface TestUser {
  id: number;
  email: string;
  password: string;
  firstname: string;
  lastname: string;
}

const PASSWORD = "sicheres-Passwort-1";
let passwordHash: Promise<string> | undefined;
let serial = 0;
/** unique per worker process and call, short enough for titles and ids */
const unique = () =>
  `${process.pid.toString(36)}-${(++serial).toString(36)}-${Date.now().toString(36).slice(-4)}`;

export const vimeo = (id: number) => `https://player.vimeo.com/video/${id}`;

/** A day of video content: `count` videos on the fake video host. */
export function contentDay(name: string, count: number, exclusiveDate = ""): ContentDay {
  return {
    name,
    exclusive_date: exclusiveDate,
    videos: Array.from({ length: count }, (_, i) => ({
      url: vimeo(100_000 + i),
      comment: `${name}: ${i + 1}`,
    })),
  };
}

/** A day relative to today (Berlin), as the overview and the database count days. */
export const dayFromToday = (days: number): IsoDate => addDays(berlinDate(), days);

/** Counts one more item of a test on the shared overview; fails past the test's share. */
function overviewBudget(used: number, max: number, what: string): number {
  if (used + 1 > share(max)) {
    throw new Error(`a test may keep ${share(max)} ${what} on the shared overview (e2e/data.ts)`);
  }
  return used + 1;
}

/** What one test made; `remove()` deletes it (and what the API made for it: orders, participations, …). */
export class TestData {
  private readonly congresses: number[] = [];
  private readonly users: number[] = [];
  private readonly emails: string[] = [];
  private readonly titles: string[] = [];
  private readonly visibleCongresses = new Set<number>();
  private congressesOnOverview = 0;
  private packagesOnOverview = 0;

  constructor(private readonly db: Db) {}

  /** The account's id at the checkout (the `uid` of a payment notification's `custom`). */
  async digistoreHash(userId: number): Promise<string> {
    const { rows } = await this.db.$client.query<{ hash: string }>(
      "SELECT digistore_hash AS hash FROM users WHERE id = $1",
      [userId],
    );
    return rows[0]?.hash ?? "";
  }

  /** A title no other test uses, starting with `label`. */
  title(label: string): string {
    return `${label} ${unique()}`;
  }

  /**
   * An event, by default visible, free and starting in ten days. One that is visible and not over counts
   * against the test's share of the overview (`overviewShare`).
   */
  async congress(fields: Partial<CongressRow> & { title?: string } = {}) {
    const row: CongressRow = {
      title: this.title("E2E-Veranstaltung"),
      description: "Eine Veranstaltung aus dem Test.",
      visible: true,
      firstDay: dayFromToday(10),
      lastDay: null,
      ...fields,
    };
    const today = berlinDate();
    if (row.visible && (row.lastDay ?? row.firstDay) >= today) {
      this.congressesOnOverview = overviewBudget(
        this.congressesOnOverview,
        OVERVIEW_MAX_CONGRESSES,
        "current visible events",
      );
    }
    const [congress] = await this.db.insert(schema.congresses).values(row).returning();
    if (!congress) {
      throw new Error("event not inserted");
    }
    this.congresses.push(congress.id);
    if (congress.visible) {
      this.visibleCongresses.add(congress.id);
    }
    return congress;
  }

  /** A checkout product id no other test uses. */
  productId(): number {
    return 600_000 + Math.floor(Math.random() * 300_000);
  }

  /** A package of `congressId` with a checkout id of its own. */
  async package(congressId: number, fields: Partial<PackageRow> = {}) {
    if (this.visibleCongresses.has(congressId)) {
      this.packagesOnOverview = overviewBudget(
        this.packagesOnOverview,
        OVERVIEW_MAX_PACKAGES,
        "offered packages",
      );
    }
    const [pkg] = await this.db
      .insert(schema.congressPackages)
      .values({
        name: this.title("E2E-Kongresspaket"),
        description: "Ein Kongresspaket aus dem Test.",
        congressId,
        externalId: this.productId(),
        ...fields,
      })
      .returning();
    if (!pkg) {
      throw new Error("package not inserted");
    }
    return pkg;
  }

  /**
   * A content of `congressId`. Tests that make more than a page of them for the admin table give them an old
   * `updatedAt`, so they sort after every other test's new rows and push none of them off the first page.
   */
  async content(congressId: number, days: ContentDay[], fields: { updatedAt?: Date } = {}) {
    const [content] = await this.db
      .insert(schema.congressContents)
      .values({ congressId, data: { days }, ...fields })
      .returning({ id: schema.congressContents.id });
    return content;
  }

  /** An event that sells tickets (both checkout products its own), by default in 40 days. */
  ticketedCongress(fields: Partial<CongressRow> = {}) {
    return this.congress({
      firstDay: dayFromToday(40),
      lastDay: dayFromToday(42),
      digistoreIdTicket: this.productId(),
      digistoreIdTicketAndPackage: this.productId(),
      ...fields,
    });
  }

  /**
   * A running event with a ticket, three days of videos (the second from today, the third from tomorrow
   * on) and, for `userId`, a participation and a paid ticket (its order number is `ticket`).
   */
  async runningCongress(userId: number, fields: Partial<CongressRow> = {}) {
    const congress = await this.ticketedCongress({
      firstDay: dayFromToday(-1),
      lastDay: dayFromToday(1),
      ...fields,
    });
    await this.content(congress.id, [
      contentDay("Tag 1: Bindung", 3),
      contentDay("Tag 2: Beziehung", 3, formatGermanDate(dayFromToday(0))),
      contentDay("Tag 3: Familie", 2, formatGermanDate(dayFromToday(1))),
    ]);
    await this.participation(userId, congress.id);
    return { ...congress, ticket: await this.ticketOrder(userId, congress.id) };
  }

  /** A confirmed (unless `unconfirmed`), active account (an admin with `admin: true`), signed up for nothing. */
  async user(
    fields: {
      admin?: boolean;
      firstname?: string;
      lastname?: string;
      unconfirmed?: boolean;
      efn?: string;
    } = {},
  ): Promise<TestUser> {
    passwordHash ??= hashPassword(PASSWORD);
    const email = `e2e.${unique()}@example.com`;
    const [user] = await this.db
      .insert(schema.users)
      .values({
        email,
        firstname: fields.firstname ?? "Erika",
        lastname: fields.lastname ?? "Muster",
        passwordHash: await passwordHash,
        roles: fields.admin ? ["ROLE_USER", "ROLE_ADMIN"] : ["ROLE_USER"],
        active: true,
        emailConfirmedAt: fields.unconfirmed ? null : new Date(),
        efn: fields.efn ?? null,
      })
      .returning({ id: schema.users.id, firstname: schema.users.firstname, lastname: schema.users.lastname });
    if (!user) {
      throw new Error("user not inserted");
    }
    this.users.push(user.id);
    return { ...user, email, password: PASSWORD };
  }

  async participation(userId: number, congressId: number) {
    await this.db.insert(schema.participations).values({ userId, congressId });
  }

  async ticketOrder(userId: number, congressId: number, status: OrderStatus = "paid") {
    const externalId = `E2E-TICKET-${unique()}`.toUpperCase();
    await this.db.insert(schema.congressTicketOrders).values({ userId, congressId, status, externalId });
    return externalId;
  }

  async packageOrder(userId: number, congressPackageId: number, status: OrderStatus = "paid") {
    const externalId = `E2E-PACKAGE-${unique()}`.toUpperCase();
    await this.db
      .insert(schema.congressPackageOrders)
      .values({ userId, congressPackageId, status, externalId });
    return externalId;
  }

  /** How many participations, ticket orders and package orders `userId` has: what a visit left behind. */
  async rowsOf(userId: number) {
    const { rows } = await this.db.$client.query<{
      participations: number;
      tickets: number;
      packages: number;
    }>(
      `SELECT (SELECT count(*)::int FROM participations WHERE user_id = $1) AS participations,
              (SELECT count(*)::int FROM congress_ticket_orders WHERE user_id = $1) AS tickets,
              (SELECT count(*)::int FROM congress_package_orders WHERE user_id = $1) AS packages`,
      [userId],
    );
    const [counts] = rows;
    if (!counts) {
      throw new Error("no counts");
    }
    return counts;
  }

  /** A mail template of an event, e.g. its own "participation-confirmation". */
  async template(congressId: number, name: string, subject = `Betreff ${unique()}`) {
    await this.db
      .insert(schema.mailTemplates)
      .values({ congressId, name, subject, content: "<p>Hallo {{userFullName}},</p><p>Text.</p>" });
  }

  /** An account the test made through the app (registration); removed with the rest. */
  removeUserAfterwards(email: string): void {
    this.emails.push(email);
  }

  /**
   * Events whose title starts with `title`, made by the test through the app: removed with the rest should
   * the test not get to it. A visible one that is not over counts against the test's share of the overview.
   */
  removeCongressesAfterwards(title: string, { onOverview = false } = {}): void {
    if (onOverview) {
      this.congressesOnOverview = overviewBudget(
        this.congressesOnOverview,
        OVERVIEW_MAX_CONGRESSES,
        "current visible events",
      );
    }
    this.titles.push(title);
  }

  /** Fortbildung: the length oEmbed gave a video (shared by every test that shows it; only Fortbildung reads it). */
  async videoLength(url: string, seconds: number) {
    const key = createHash("sha256").update(url).digest("hex");
    await this.db
      .insert(schema.videoPreviews)
      .values({ key, url, durationSeconds: seconds })
      .onConflictDoUpdate({ target: schema.videoPreviews.key, set: { durationSeconds: seconds } });
  }

  /**
   * Fortbildung: `seconds` of `url` credited to the user on `day` (as the player's heartbeats would), on the
   * package page `packageId` when given (a recording, ADR 0119).
   */
  async watched(
    userId: number,
    congressId: number,
    day: IsoDate,
    url: string,
    seconds: number,
    packageId?: number,
  ) {
    const videoKey = createHash("sha256").update(url).digest("hex");
    await this.db.insert(schema.watchTime).values({
      userId,
      congressId,
      day,
      videoKey,
      packageId: packageId ?? null,
      source: "player",
      played: `{[0,${seconds})}`,
      seconds,
    });
  }

  /** A learning-success check of a package (ADR 0119), deleted with the package's event. */
  async learningCheck(
    packageId: number,
    questions: { question: string; answers: { text: string; correct: boolean }[]; explanation?: string }[],
    fields: Partial<typeof schema.learningChecks.$inferInsert> = {},
  ) {
    const [check] = await this.db
      .insert(schema.learningChecks)
      .values({ packageId, ...fields })
      .returning();
    if (!check) {
      throw new Error("learning check not created");
    }
    await this.db
      .insert(schema.learningCheckQuestions)
      .values(questions.map((q, position) => ({ checkId: check.id, position, explanation: "", ...q })));
    return check;
  }

  /** Certificates (ADR 0115): an issuer, unless one is set already (one row, shared by every test). */
  async certificateIssuer() {
    await this.db
      .insert(schema.certificateIssuer)
      .values({ id: 1, name: "E2E-Institut für Fortbildung", address: "Teststraße 1\n10115 Berlin" })
      .onConflictDoNothing();
  }

  async remove(): Promise<void> {
    const pool = this.db.$client;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      if (this.titles.length > 0) {
        const { rows } = await client.query<{ id: number }>(
          "SELECT id FROM congresses WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS p WHERE starts_with(title, p))",
          [this.titles],
        );
        this.congresses.push(...rows.map((r) => r.id));
      }
      if (this.emails.length > 0) {
        const { rows } = await client.query<{ id: number }>(
          "SELECT id FROM users WHERE lower(email) = ANY($1::text[])",
          [this.emails.map((e) => e.toLowerCase())],
        );
        this.users.push(...rows.map((r) => r.id));
      }
      // orders keep their event and package (restrict): they go first, then what cascades from the rest
      await client.query(
        "DELETE FROM congress_package_orders WHERE congress_package_id IN (SELECT id FROM congress_packages WHERE congress_id = ANY($1::int[]))",
        [this.congresses],
      );
      await client.query("DELETE FROM congress_ticket_orders WHERE congress_id = ANY($1::int[])", [
        this.congresses,
      ]);
      await client.query("DELETE FROM users WHERE id = ANY($1::int[])", [this.users]);
      await client.query("DELETE FROM congresses WHERE id = ANY($1::int[])", [this.congresses]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  }
}
