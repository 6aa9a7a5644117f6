import { randomUUID } from "node:crypto";
import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { and, eq, getTableName, isNotNull, isNull, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, newToken } from "../lib/tokens";
import { storeImage } from "../services/admin/images";
import { newTotpSecret, totpFor } from "../services/auth/totp";
import { insertCertificate } from "../services/certificates/issue";
import { digistoreSignature } from "../services/commerce/signature";
import { previewKey } from "../services/visitor/video-preview";
import {
  createCongress,
  createContent,
  createPackage,
  createUser,
  packageOrder,
  participate,
  relDay,
  syncPackageSequence,
  ticketOrder,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import type { CallerRole } from "../trpc/roles";
import { appRouter } from "../trpc/router";

/**
 * The authorisation matrix (docs/security.md): every tRPC procedure and every route of the running app is called as
 * anonymous, as a user, as another user and as an admin, and each answer is held against one table (MATRIX).
 * The endpoints are read from the app, so a new procedure or route without a row fails the suite, and so
 * does a row for something that no longer exists.
 */

const CALLERS = ["anonymous", "user", "otherUser", "admin"] as const;
type CallerKind = (typeof CALLERS)[number];

/**
 * "ok": a 2xx answer (every call sends valid input, so an allowed call really succeeds); a number: that
 * status (400 only where success would destroy a shared caller, see account.delete)
 */
type Outcome = "ok" | 400 | 401 | 403 | 404;
type Access = "public" | "user" | "admin" | "owner" | "paid" | "signed" | "operator";

/** The role a REST path declares for each kind of access (ownership and payment are the procedures' checks). */
const DECLARED_ROLE: Record<Access, CallerRole> = {
  public: "public",
  signed: "public",
  user: "user",
  owner: "user",
  paid: "user",
  admin: "admin",
  // /metrics is outside /api: its own bearer token, no session role (the row below checks it)
  operator: "public",
};

const RULES: Record<Access, Record<CallerKind, Outcome>> = {
  public: { anonymous: "ok", user: "ok", otherUser: "ok", admin: "ok" },
  user: { anonymous: 401, user: "ok", otherUser: "ok", admin: "ok" },
  admin: { anonymous: 401, user: 403, otherUser: 403, admin: "ok" },
  /** the resource belongs to `user`; to everybody else (admins too: the visitor area is personal) it does not exist */
  owner: { anonymous: 401, user: "ok", otherUser: 404, admin: 404 },
  /** `user` has paid (or knows the password); `otherUser` and `admin` have not */
  paid: { anonymous: 401, user: "ok", otherUser: 403, admin: 403 },
  /** the checkout provider's notifications: refused without a valid signature (the matrix sends none) */
  signed: { anonymous: 403, user: 403, otherUser: 403, admin: 403 },
  /** the operators' metrics: only METRICS_TOKEN opens them, no session of anybody (an admin's neither) */
  operator: { anonymous: 401, user: 401, otherUser: 401, admin: 401 },
};

type User = typeof schema.users.$inferSelect;

interface Scene {
  caller: CallerKind;
  /** the calling account; undefined for anonymous */
  me: User | undefined;
}

interface Answer {
  status: number;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  data: any;
  /** tRPC only: the machine-readable reason of a refusal */
  reason?: string | undefined;
}

interface Checks {
  /** what an allowed caller sees, and what a refused one does not */
  check?: (answer: Answer) => void | Promise<void>;
  /** after a refused call: nothing changed */
  intact?: () => Promise<void>;
}

/** The data of one call, made afresh before every call, so calls that change state never share data. */
interface Fixture extends Checks {
  data: Record<string, unknown>;
}
type Make = (s: Scene) => Fixture | Promise<Fixture>;

interface RequestBody {
  type: string;
  payload: string | Buffer;
}

interface Call extends Checks {
  /** tRPC input (or `body` for a procedure taking form data) */
  input?: unknown;
  /** REST: the URL with its parameters filled in (default: the route's URL) */
  url?: string;
  body?: RequestBody;
}

interface Expectation {
  access: Access;
  /**
   * REST only: the service a path reads past the procedures (the streamed exports, the checkout's
   * notifications); such a path has nothing behind its declared role, so it is named here
   */
  service?: string;
  call?: (s: Scene) => Call | Promise<Call>;
  /** outcomes that differ from the access rule's */
  except?: Partial<Record<CallerKind, Outcome>>;
}

// ---------------------------------------------------------------------------------------------------------
// the application and the data every row shares

let t: TestApp;
const db = () => t.db.db;
const { congresses, congressContents, congressPackages, mailTemplates, participations, users } = schema;
const { congressPackageOrders, congressTicketOrders, packageUnlocks, paymentNotifications } = schema;

const PASSWORD = "Matrix-Passwort-1";
let passwordHash: string;
let png: Buffer;
/** the callers and the data most rows share (set up once in beforeAll) */
const world = {} as {
  user: User;
  otherUser: User;
  admin: User;
  /** visible, running, free; `user` has a paid order for its package */
  congress: typeof congresses.$inferSelect;
  pkg: typeof congressPackages.$inferSelect;
  /** running ticketed webinar: `user` has a paid ticket, `otherUser` a cancelled one */
  webinar: typeof congresses.$inferSelect;
  /** a video of the package behind the couple-therapy gated page (package 1) */
  gatedVideo: string;
};

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;
let ipSeq = 0;
/** every call from an address of its own: the per-IP rate limits of the account flows never add up */
const nextIp = () => {
  ipSeq += 1;
  return `10.${Math.floor(ipSeq / 62_500) % 250}.${Math.floor(ipSeq / 250) % 250}.${(ipSeq % 250) + 1}`;
};

const freshUser = (values: Partial<typeof users.$inferInsert> = {}) =>
  createUser(db(), { email: `matrix.${unique()}@example.com`, ...values });
const freshCongress = (values: Partial<typeof congresses.$inferInsert> = {}) => createCongress(db(), values);
const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000);

/** After a refused call: `where` still matches `n` rows of `table`. */
const rowsStay = (table: PgTable, where: SQL | undefined, n: number) => async () => {
  expect(await db().$count(table, where), `rows of ${getTableName(table)} after a refused call`).toBe(n);
};

beforeAll(async () => {
  // a contact, so /.well-known/security.txt answers, and metrics on, so /metrics does (without them both
  // are 404 for everybody)
  t = await createTestApp({
    env: { SECURITY_CONTACT: "sicherheit@example.com", METRICS_TOKEN: `matrix-metrics-${randomUUID()}` },
  });
  passwordHash = await hashPassword(PASSWORD);
  png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  // the gated pages open packages 1 and 3: created first, on a database of our own
  const archive = await createCongress(db(), {
    visible: false,
    firstDay: relDay(-400),
    lastDay: relDay(-399),
  });
  world.gatedVideo = videoUrl();
  await createContent(db(), archive.id, [{ urls: [world.gatedVideo] }]);
  for (const id of [1, 2, 3]) {
    await createPackage(db(), archive.id, { id });
  }
  await syncPackageSequence(db());

  world.user = await freshUser({ firstname: "Ulla" });
  world.otherUser = await freshUser({ firstname: "Otto" });
  world.admin = await freshUser({ firstname: "Ada", roles: ["ROLE_USER", "ROLE_ADMIN"] });
  world.congress = await freshCongress();
  world.pkg = await createPackage(db(), world.congress.id);
  // bought at the checkout: the checkout return reads the order its payment notification made
  const orderNumber = `ORD-WORLD-${unique()}`;
  await db().insert(congressPackageOrders).values({
    userId: world.user.id,
    congressPackageId: world.pkg.id,
    status: "paid",
    externalId: orderNumber,
  });
  await db()
    .insert(paymentNotifications)
    .values({
      event: "on_payment",
      orderId: orderNumber,
      productId: String(world.pkg.externalId),
      custom: `uid-${world.user.digistoreHash}|pid-${world.pkg.id}|cat-pac`,
      signatureValid: true,
      outcome: "processed",
      payload: {},
    });
  world.webinar = await freshCongress({
    digistoreIdTicket: 4711,
    webinar: true,
    webinarUrl: `https://webinar.example/${randomUUID()}`,
  });
  await participate(db(), world.user.id, world.webinar.id);
  await ticketOrder(db(), world.user.id, world.webinar.id, "paid");
  await participate(db(), world.otherUser.id, world.webinar.id);
  await ticketOrder(db(), world.otherUser.id, world.webinar.id, "canceled");
});

afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------------------
// fixtures: valid data for one call, what its answer must show, and what a refused call must leave alone

const fixed =
  (data: () => Record<string, unknown>): Make =>
  () => ({ data: data() });

const registration: Make = () => ({
  data: {
    firstname: "Rita",
    lastname: "Registriert",
    email: `neu.${unique()}@example.com`,
    password: PASSWORD,
    dataProtection: true,
  },
});
const emailOfFreshUser: Make = async () => ({ data: { email: (await freshUser()).email } });
const credentials: Make = async () => ({
  data: { email: (await freshUser({ passwordHash })).email, password: PASSWORD },
});

const refreshToken: Make = async () => {
  const { id: userId } = await freshUser();
  const token = newToken();
  const values = { userId, familyId: randomUUID(), tokenHash: hashToken(token), expiresAt: inAnHour() };
  await db().insert(schema.refreshTokens).values(values);
  return { data: { refreshToken: token } };
};

const confirmationLink: Make = async () => {
  const { id: userId } = await freshUser({ active: false });
  const hash = newToken();
  const values = { userId, tokenHash: hashToken(hash), expiresAt: inAnHour() };
  await db().insert(schema.emailConfirmationTokens).values(values);
  return { data: { userId, hash } };
};

const resetLink: Make = async () => {
  const { id: userId } = await freshUser();
  const token = newToken();
  const values = { userId, tokenHash: hashToken(token), expiresAt: inAnHour() };
  await db().insert(schema.passwordResetTokens).values(values);
  return { data: { token, password: PASSWORD, passwordConfirm: PASSWORD } };
};

const signInLink: Make = async () => {
  const { id: userId } = await freshUser();
  const token = newToken();
  await db()
    .insert(schema.signInLinks)
    .values({ userId, tokenHash: hashToken(token), expiresAt: inAnHour() });
  return { data: { token } };
};

const migrationLink: Make = async () => {
  const hash = `migration-${unique()}`;
  const { id: userId } = await freshUser({ passwordHash: null, migrationHash: hash });
  return { data: { userId, hash, password: PASSWORD } };
};

/** A fresh account with two-factor login, its challenge from the password step and a current code. */
const twoFactorLogin: Make = async () => {
  const secret = newTotpSecret();
  const user = await freshUser({ passwordHash, totpSecret: secret, totpEnabledAt: new Date() });
  const first = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress: nextIp(),
    payload: { email: user.email, password: PASSWORD },
  });
  return { data: { challenge: first.json().challenge, code: totpFor(secret).generate() } };
};

/**
 * The caller's own two-factor login in the state the call needs (`enabled` or only begun), with a current
 * code; the last used time step is forgotten, so the shared callers can go through it more than once.
 */
const ownTwoFactor =
  (enabled: boolean): Make =>
  async (s) => {
    if (!s.me) {
      return { data: { code: "123456" } };
    }
    const secret = newTotpSecret();
    const id = s.me.id;
    await db()
      .update(users)
      .set({ totpSecret: secret, totpEnabledAt: enabled ? new Date() : null })
      .where(eq(users.id, id));
    await db()
      .delete(schema.rateLimits)
      .where(eq(schema.rateLimits.key, `totp:last-step:${id}`));
    const state = enabled ? isNotNull(users.totpEnabledAt) : isNull(users.totpEnabledAt);
    return {
      data: { code: totpFor(secret).generate() },
      intact: rowsStay(users, and(eq(users.id, id), state), 1),
    };
  };

const ownProfile: Make = (s) => ({
  data: {},
  check: (a) => {
    if (s.me) {
      expect(a.data).toMatchObject({ id: s.me.id, email: s.me.email, firstname: s.me.firstname });
      expect(a.body).not.toMatch(/passwordHash|migrationHash|digistoreHash/);
    }
  },
});

/** The caller's consents and data export: their own, never another account's. */
const ownConsents: Make = (s) => ({
  data: {},
  check: async (a) => {
    if (s.me) {
      const mine = await db().$count(schema.consentRecords, eq(schema.consentRecords.userId, s.me.id));
      expect(a.data).toHaveLength(mine);
    }
  },
});
const ownExport: Make = (s) => ({
  data: {},
  check: (a) => {
    if (s.me) {
      expect(a.data.account).toMatchObject({ id: s.me.id, email: s.me.email });
      expect(a.body).not.toMatch(/passwordHash|migrationHash|digistoreHash/);
    }
    for (const other of [world.user, world.otherUser, world.admin].filter((u) => u.id !== s.me?.id)) {
      expect(a.body).not.toContain(other.email);
    }
  },
});

const legalPageText: Make = () => {
  const html = `<p>Impressum ${unique()}</p>`;
  return {
    data: { slug: "impressum", html },
    intact: async () => {
      const [row] = await db()
        .select()
        .from(schema.legalPages)
        .where(eq(schema.legalPages.slug, "impressum"));
      expect(row?.html).not.toBe(html);
    },
  };
};

const ownOverview: Make = (s) => ({
  data: {},
  check: (a) => expect(a.data?.user?.firstname).toBe(s.me?.firstname),
});

/** The webinar link is what a ticket pays for: only `user` sees it. */
const webinarCongress: Make = (s) => ({
  data: { congressId: world.webinar.id },
  check: (a) => {
    if (s.caller === "user") {
      expect(a.data.webinarUrl).toBe(world.webinar.webinarUrl);
    } else {
      expect(a.body).not.toContain(world.webinar.webinarUrl);
    }
  },
});

/** Participation counts: of a hidden event for admins only (for everybody else it is unknown). */
const countsOfHiddenCongress: Make = async (s) => {
  const hidden = await freshCongress({ visible: false });
  return {
    data: { congressIds: [hidden.id] },
    check: (a) => {
      expect(Object.keys(a.data ?? {})).toEqual(s.caller === "admin" ? [String(hidden.id)] : []);
    },
  };
};

/** The calendar file shows the webinar link only to `user` (paid ticket). */
const webinarCalendar: Make = (s) => ({
  data: { congressId: world.webinar.id },
  check: (a) => {
    const content = String(a.data?.content ?? a.body);
    if (s.caller === "user") {
      expect(content.replace(/\r\n /g, "")).toContain(world.webinar.webinarUrl);
    } else {
      expect(content.replace(/\r\n /g, "")).not.toContain(world.webinar.webinarUrl);
    }
  },
});

/** Opening the running webinar `user` paid for; the others' calls leave no attendance behind. */
const webinarAttendance: Make = (s) => ({
  data: { congressId: world.webinar.id, source: "webinar" },
  intact: rowsStay(
    schema.attendances,
    and(eq(schema.attendances.userId, s.me?.id ?? 0), eq(schema.attendances.congressId, world.webinar.id)),
    0,
  ),
});

/** A heartbeat of a video of a ticketed running event: only `user` (paid ticket) gets watch time. */
const ticketedHeartbeat: Make = async (s) => {
  const { congress, url } = await ticketedVideo();
  return {
    data: { congressId: congress.id, videoUrl: url, ranges: [{ start: 0, end: 30 }] },
    intact: rowsStay(
      schema.watchTime,
      and(eq(schema.watchTime.userId, s.me?.id ?? 0), eq(schema.watchTime.congressId, congress.id)),
      0,
    ),
  };
};

/** A presence check asked to `user` a moment ago: only `user` can answer it; it stays open for the others. */
const presenceCheckOfUser: Make = async () => {
  const congress = await freshCongress({ fortbildung: true, presenceChecksPerDay: 1 });
  const day = relDay(0);
  const key = {
    userId: world.user.id,
    congressId: congress.id,
    day,
    seq: 1,
  };
  await db()
    .insert(schema.presenceChecks)
    .values({ ...key, dueAtSeconds: 60, askedAt: new Date() });
  return {
    data: { congressId: congress.id, day, seq: 1 },
    intact: rowsStay(
      schema.presenceChecks,
      and(eq(schema.presenceChecks.congressId, congress.id), isNull(schema.presenceChecks.answeredAt)),
      1,
    ),
  };
};

/** An event `user` attended: only `user` gets a confirmation. */
const attendedCongress: Make = async (s) => {
  const congress = await freshCongress();
  await db()
    .insert(schema.attendances)
    .values({ userId: world.user.id, congressId: congress.id, day: relDay(0), source: "video" });
  return {
    data: { congressId: congress.id },
    check: (a) => {
      if (s.caller === "user") {
        const pdf = a.data?.base64 ? Buffer.from(a.data.base64, "base64").toString("latin1") : a.body;
        expect(pdf.startsWith("%PDF-")).toBe(true);
      }
    },
  };
};

const freeCongress: Make = async () => ({ data: { congressId: (await freshCongress()).id } });

/** The package `user` paid for: nobody else's view shows it as bought. */
const boughtPackage: Make = (s) => ({
  data: { packageId: world.pkg.id },
  check: (a) => {
    if (s.caller === "user") {
      expect(a.data).toMatchObject({ bought: true, qualified: true });
    } else if (s.me) {
      expect(a.data).toMatchObject({ bought: false, orderStatus: null, qualified: false });
    }
  },
});

/** A participation of `user` in a free event; everybody else must leave it alone. */
const participationOfUser: Make = async () => {
  const id = await participate(db(), world.user.id, (await freshCongress()).id);
  return { data: { participationId: id }, intact: rowsStay(participations, eq(participations.id, id), 1) };
};

/** A running ticketed event with a video: `user` paid, `otherUser` participates with a cancelled order. */
async function ticketedVideo() {
  const congress = await freshCongress({ digistoreIdTicket: 4711 });
  const url = videoUrl();
  await createContent(db(), congress.id, [{ urls: [url] }]);
  await participate(db(), world.user.id, congress.id);
  await ticketOrder(db(), world.user.id, congress.id, "paid");
  await participate(db(), world.otherUser.id, congress.id);
  await ticketOrder(db(), world.otherUser.id, congress.id, "canceled");
  return { congress, url };
}

/** Its content: only `user` sees the video. */
const ticketedCongressContent: Make = async (s) => {
  const { congress, url } = await ticketedVideo();
  return {
    data: { congressId: congress.id },
    check: (a) => {
      if (s.caller === "user") {
        expect(a.body).toContain(url);
        return;
      }
      expect(a.body).not.toContain(url);
      if (s.me) {
        expect(a.reason).toBe("not-participating");
      }
    },
  };
};

/** A package with a video: `user` paid for it, `otherUser` has a cancelled order. */
const paidPackagePage: Make = async (s) => {
  const congress = await freshCongress({ firstDay: relDay(-30), lastDay: relDay(-29) });
  const url = videoUrl();
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const pkg = await createPackage(db(), congress.id);
  await packageOrder(db(), world.user.id, pkg.id, "paid");
  await packageOrder(db(), world.otherUser.id, pkg.id, "canceled");
  return {
    data: { packageId: pkg.id },
    check: (a) => {
      if (s.caller === "user") {
        expect(a.data.isQualified).toBe(true);
        expect(a.body).toContain(url);
        return;
      }
      expect(a.body).not.toContain(url);
      if (s.me) {
        expect(a.data.isQualified).toBe(false);
      }
    },
  };
};

/** A package nobody bought yet (`user` paid for world.pkg, which the checkout refuses to sell twice). */
const checkoutOfOwnAccount: Make = async (s) => ({
  data: { category: "pac", id: (await createPackage(db(), world.congress.id)).id },
  check: (a) => {
    if (s.me) {
      expect(a.data.url).toContain(`uid-${s.me.digistoreHash}`);
    }
  },
});

/** The return from the checkout for world.pkg: paid for `user` only. */
const checkoutReturnOfOwnAccount: Make = (s) => ({
  data: { category: "pac", id: world.pkg.id },
  check: (a) => {
    if (s.me) {
      expect(a.data.paid).toBe(s.caller === "user");
    }
  },
});

const gatedPath: Make = () => ({ data: { path: t.env.GATED_PATH_COUPLE_THERAPY } });

/** `user` knows the password of the gated page, the others try a wrong one. */
const gatedPassword: Make = (s) => ({
  data: {
    path: t.env.GATED_PATH_COUPLE_THERAPY,
    password: s.caller === "user" ? t.env.GATED_PASSWORD_COUPLE_THERAPY : "falsches-Passwort",
  },
  intact: rowsStay(
    packageUnlocks,
    and(eq(packageUnlocks.userId, s.me?.id ?? 0), eq(packageUnlocks.congressPackageId, 1)),
    0,
  ),
});

/** The admin's order tables show `user`'s order to the admin; nobody else sees it. */
const ordersOfUser: Make = (s) => ({
  data: { kind: "package", search: world.user.email },
  check: (a) => {
    if (s.caller === "admin") {
      expect(a.body).toContain(world.user.email);
    } else {
      expect(a.body).not.toContain(world.user.email);
    }
  },
});

const newCongress: Make = () => {
  const title = `Matrix-Kongress ${unique()}`;
  return {
    data: { title, description: "Beschreibung", firstCongressDay: { date: relDay(10) } },
    intact: rowsStay(congresses, eq(congresses.title, title), 0),
  };
};

const existingCongress: Make = async () => {
  const { id } = await freshCongress();
  return { data: { id }, intact: rowsStay(congresses, eq(congresses.id, id), 1) };
};

const newPackage: Make = () => {
  const name = `Matrix-Paket ${unique()}`;
  return {
    data: { name, congress: world.congress.id, externalId: 5000 + seq, description: "Beschreibung" },
    intact: rowsStay(congressPackages, eq(congressPackages.name, name), 0),
  };
};

const existingPackage: Make = async () => {
  const { id } = await createPackage(db(), world.congress.id);
  return { data: { id }, intact: rowsStay(congressPackages, eq(congressPackages.id, id), 1) };
};

/**
 * A learning check of a past Fortbildung event's package (ADR 0119): `user` paid for the package and
 * watched its recording there; three questions, the first answer of each correct.
 */
async function learningCheckOfPaidPackage() {
  const congress = await freshCongress({ fortbildung: true, firstDay: relDay(-30), lastDay: relDay(-30) });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const pkg = await createPackage(db(), congress.id);
  await packageOrder(db(), world.user.id, pkg.id, "paid");
  await db()
    .insert(schema.watchTime)
    .values({
      userId: world.user.id,
      congressId: congress.id,
      day: relDay(-1),
      videoKey: previewKey(url),
      packageId: pkg.id,
      source: "player",
      played: "{[0,600)}",
      seconds: 600,
    });
  const [check] = await db()
    .insert(schema.learningChecks)
    .values({ packageId: pkg.id })
    .returning({ id: schema.learningChecks.id });
  const checkId = check?.id ?? 0;
  const questions = await db()
    .insert(schema.learningCheckQuestions)
    .values(
      [1, 2, 3].map((position) => ({
        checkId,
        position,
        question: `Frage ${position}`,
        answers: [
          { text: "Richtig", correct: true },
          { text: "Falsch", correct: false },
          { text: "Auch falsch", correct: false },
        ],
      })),
    )
    .returning({ id: schema.learningCheckQuestions.id });
  return { pkg, checkId, questionIds: questions.map((q) => q.id) };
}

/** Starting the check: only `user` (paid, watched) gets an attempt. */
const learningCheckStart: Make = async () => {
  const { checkId } = await learningCheckOfPaidPackage();
  return {
    data: { checkId },
    intact: rowsStay(schema.learningCheckAttempts, eq(schema.learningCheckAttempts.checkId, checkId), 0),
  };
};

/** `user`'s open attempt: nobody else can submit it (it does not exist for them). */
const learningCheckAttemptOfUser: Make = async () => {
  const { checkId, questionIds } = await learningCheckOfPaidPackage();
  const [attempt] = await db()
    .insert(schema.learningCheckAttempts)
    .values({
      checkId,
      userId: world.user.id,
      shown: questionIds.map((questionId) => ({ questionId, answerOrder: [0, 1, 2] })),
    })
    .returning({ id: schema.learningCheckAttempts.id });
  const id = attempt?.id ?? 0;
  return {
    data: { attemptId: id, answers: questionIds.map((questionId) => ({ questionId, chosen: [0] })) },
    intact: rowsStay(
      schema.learningCheckAttempts,
      and(eq(schema.learningCheckAttempts.id, id), isNull(schema.learningCheckAttempts.submittedAt)),
      1,
    ),
  };
};

const newLearningCheck: Make = async () => {
  const pkg = await createPackage(db(), world.congress.id);
  return {
    data: {
      packageId: pkg.id,
      day: null,
      passPercent: 70,
      questions: [
        {
          question: "Frage?",
          answers: [
            { text: "Ja", correct: true },
            { text: "Nein", correct: false },
            { text: "Vielleicht", correct: false },
          ],
        },
      ],
    },
    intact: rowsStay(schema.learningChecks, eq(schema.learningChecks.packageId, pkg.id), 0),
  };
};

const existingLearningCheck: Make = async () => {
  const { checkId } = await learningCheckOfPaidPackage();
  return {
    data: { id: checkId },
    intact: rowsStay(schema.learningChecks, eq(schema.learningChecks.id, checkId), 1),
  };
};

/** A user or otherUser tries to make themselves admin; the admin promotes a fresh account. */
const promotion: Make = async (s) => {
  const target = s.me && s.caller !== "admin" ? s.me : await freshUser();
  const { id, firstname, lastname, email } = target;
  return {
    data: { id, firstname, lastname, email, active: true, admin: true },
    intact: rowsStay(users, and(eq(users.id, id), eq(users.admin, false)), 1),
  };
};

const deactivation: Make = async () => {
  const { id } = await freshUser();
  return {
    data: { id, active: false },
    intact: rowsStay(users, and(eq(users.id, id), eq(users.active, true)), 1),
  };
};

const existingUser: Make = async () => {
  const { id } = await freshUser();
  return { data: { id }, intact: rowsStay(users, eq(users.id, id), 1) };
};

const newContent: Make = async () => {
  const { id } = await freshCongress();
  return {
    data: { congress: id, data: { days: [{ name: "Tag 1", videos: [{ url: videoUrl(), comment: "" }] }] } },
    intact: rowsStay(congressContents, eq(congressContents.congressId, id), 0),
  };
};

const existingContent: Make = async () => {
  const { id: congressId } = await freshCongress();
  const [row] = await db()
    .insert(congressContents)
    .values({ congressId, data: { days: [] } })
    .returning();
  const id = row?.id ?? 0;
  return { data: { id }, intact: rowsStay(congressContents, eq(congressContents.id, id), 1) };
};

const TEMPLATE = { name: "participation-confirmation", subject: "Betreff", content: "<p>Hallo</p>" };

const newTemplate: Make = async () => {
  const { id } = await freshCongress();
  return {
    data: { ...TEMPLATE, congress: id },
    intact: rowsStay(mailTemplates, eq(mailTemplates.congressId, id), 0),
  };
};

const templateCopy: Make = async () => {
  const from = await freshCongress();
  const to = await freshCongress();
  await db()
    .insert(mailTemplates)
    .values({ ...TEMPLATE, congressId: from.id });
  return {
    data: { copy_from: from.id, copy_to: to.id },
    intact: rowsStay(mailTemplates, eq(mailTemplates.congressId, to.id), 0),
  };
};

const templateCreate: Make = async () => {
  const { id } = await freshCongress();
  return {
    data: { congress: id, name: "event-day" },
    intact: rowsStay(mailTemplates, eq(mailTemplates.congressId, id), 0),
  };
};

/** The order form's warning: the user's paid package order is named to an admin only. */
const paidOrders: Make = (s) => ({
  data: { kind: "package", productId: world.pkg.id, users: [world.user.id] },
  check: (a) => {
    if (s.caller === "admin") {
      expect(a.body).toContain(world.user.email);
    } else {
      expect(a.body).not.toContain(world.user.email);
    }
  },
});

const testMail: Make = (s) => ({
  data: TEMPLATE,
  check: (a) => {
    if (s.caller === "admin") {
      expect(a.data.to).toBe(world.admin.email);
    }
  },
});

/** An admin order for a fresh account; a refused call leaves it without orders. */
const adminOrder =
  (kind: "package" | "ticket"): Make =>
  async () => {
    const { id } = await freshUser();
    if (kind === "package") {
      const intact = rowsStay(congressPackageOrders, eq(congressPackageOrders.userId, id), 0);
      return { data: { kind, users: [id], congressPackage: world.pkg.id }, intact };
    }
    const intact = rowsStay(congressTicketOrders, eq(congressTicketOrders.userId, id), 0);
    return { data: { kind, users: [id], congress: world.congress.id }, intact };
  };

/** A payment notification for `user` as the checkout sends it, but without `sha_sign`. */
const unsignedPayment: Make = () => {
  const orderId = `ORD-${unique()}`;
  return {
    data: {
      event: "on_payment",
      order_id: orderId,
      product_id: String(world.pkg.externalId),
      transaction_id: `TX-${orderId}`,
      email: world.user.email,
      custom: `uid-${world.user.digistoreHash}|pid-${world.pkg.id}|cat-pac`,
    },
    intact: async () => {
      await rowsStay(paymentNotifications, eq(paymentNotifications.orderId, orderId), 0)();
      await rowsStay(congressPackageOrders, eq(congressPackageOrders.externalId, orderId), 0)();
    },
  };
};

/** A mail given up after its attempts; a refused resend leaves it failed. */
const failedMail: Make = async () => {
  // an account's mail: the resend makes a fresh reset link for it (ADR 0091)
  const { id: userId, email } = await freshUser();
  const [row] = await db()
    .insert(schema.mailOutbox)
    .values({
      idempotencyKey: `matrix-failed:${unique()}`,
      templateName: "password-reset",
      toEmail: email,
      userId,
      status: "failed",
      attempts: 8,
    })
    .returning({ id: schema.mailOutbox.id });
  const id = row?.id ?? 0;
  const stays = and(eq(schema.mailOutbox.id, id), eq(schema.mailOutbox.status, "failed"));
  return { data: { id }, intact: rowsStay(schema.mailOutbox, stays, 1) };
};

/** A stored notification carrying a buyer's e-mail: only an admin sees it, in the list or with its raw payload. */
const storedNotification =
  (by: "list" | "id"): Make =>
  async (s) => {
    const orderId = `MATRIX${unique()}`;
    const email = `zahlung.${unique()}@example.com`;
    const [row] = await db()
      .insert(schema.paymentNotifications)
      .values({
        event: "on_payment",
        orderId,
        signatureValid: true,
        outcome: "processed",
        payload: { email },
      })
      .returning({ id: schema.paymentNotifications.id });
    return {
      data: by === "list" ? { orderNumber: orderId } : { id: row?.id ?? 0 },
      check: (a) => {
        if (s.caller === "admin") {
          expect(a.body).toContain(email);
        } else {
          expect(a.body).not.toContain(email);
        }
      },
    };
  };

/** The certificates' issuer named (the chamber's reports list certificates, which need one). */
async function issuerNamed() {
  await db().insert(schema.certificateIssuer).values({ id: 1 }).onConflictDoNothing();
  await db()
    .update(schema.certificateIssuer)
    .set({ name: "Matrix-Institut" })
    .where(eq(schema.certificateIssuer.name, ""));
}

/** A chamber's report's list without EFN: only an admin gets the file, and it names `user`. */
const reportNamingUser = (data: Record<string, unknown>): Fixture => ({
  data,
  check: (a) => {
    if (a.status === 200) {
      expect(a.body).toContain("VNR;Nachname;Vorname;E-Mail;Datum;Punkte");
      expect(a.body).toContain(world.user.email);
    } else {
      expect(a.body).not.toContain(world.user.email);
    }
  },
});

/** The chamber's report of an ended Fortbildung event's day that `user` reached (and is certified for). */
const chamberReportOfEndedEvent: Make = async () => {
  await issuerNamed();
  const day = relDay(-2);
  const congress = await freshCongress({ fortbildung: true, firstDay: day, lastDay: day });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  await participate(db(), world.user.id, congress.id);
  await db()
    .insert(schema.watchTime)
    .values({
      userId: world.user.id,
      congressId: congress.id,
      day,
      videoKey: previewKey(url),
      source: "player",
      played: "{[0,600)}",
      seconds: 600,
    });
  return reportNamingUser({ congressId: congress.id, day });
};

/** The chamber's report of a learning check that `user` passed. */
const recordingReportOfPass: Make = async () => {
  await issuerNamed();
  const { checkId } = await learningCheckOfPaidPackage();
  await db()
    .insert(schema.learningCheckAttempts)
    .values({ checkId, userId: world.user.id, shown: [], submittedAt: new Date(), passed: true });
  return reportNamingUser({ learningCheckId: checkId });
};

/** The ticketed webinar's participants: only an admin gets the file, and it lists both of them. */
const participantsOfWebinar: Make = () => ({
  data: { congressId: world.webinar.id },
  check: (a) => {
    for (const user of [world.user, world.otherUser]) {
      if (a.status === 200) {
        expect(a.body).toContain(user.email);
      } else {
        expect(a.body).not.toContain(user.email);
      }
    }
  },
});

/**
 * A participant report naming `user` for a fresh event's first day, as form data: the preview writes
 * nothing, the import credits `user`; a refused import leaves no watch time behind.
 */
const participantReport = async (): Promise<Call> => {
  const congress = await freshCongress();
  const csv = `E-Mail;Beginn;Ende\n${world.user.email};09:00;10:00\n`;
  return {
    body: multipart({ congressId: String(congress.id), day: congress.firstDay }, Buffer.from(csv)),
    check: (a) => {
      if (a.status === 200) {
        // the preview lists `user`, the import counts `user`
        const { people } = a.data.result.data.json;
        expect(Array.isArray(people) ? people.map((p: { userId: number }) => p.userId) : people).toEqual(
          Array.isArray(people) ? [world.user.id] : 1,
        );
      }
    },
    intact: rowsStay(schema.watchTime, eq(schema.watchTime.congressId, congress.id), 0),
  };
};

const storedImage: Make = async () => ({ data: { fileName: await storeImage(db(), png) } });

const videoThumbnail: Make = async () => {
  const url = videoUrl();
  const key = previewKey(url);
  const values = { key, url, title: "Vortrag", thumbnail: png, thumbnailType: "image/png" };
  await db().insert(schema.videoPreviews).values(values);
  return { data: { key } };
};

// ---------------------------------------------------------------------------------------------------------
// turning a fixture into a tRPC or a REST call

/** The fixture's data as the procedure's input. */

// --- certificates (ADR 0116): the participant's own, and the admin's section

/** A certificate of `user` (or of `owner`), with its facts as issued; its code is derived as the PDF's. */
async function certificateOf(
  userId: number,
  kind: "event" | "recording" = "event",
  learning: { checkId: number; congressId: number } | null = null,
) {
  // one current certificate per person and event (or check): each call its own event
  const congress = learning ? { id: learning.congressId } : await freshCongress();
  const learningCheckId = learning?.checkId ?? null;
  const made = await insertCertificate(
    { db: db(), env: t.env, clock: t.clock },
    {
      userId,
      congressId: congress.id,
      kind,
      learningCheckId,
      facts: {
        kind,
        issuedOn: relDay(0),
        participant: { name: "Ulla Matrix", efn: null },
        issuer: { name: "Matrix-Institut", address: "", signatory: "", logo: null, signature: null },
        congress: {
          title: world.congress.title,
          firstDay: world.congress.firstDay,
          lastDay: world.congress.lastDay,
        },
        vnr: null,
        category: null,
        days: [],
        points: 0,
        recording: null,
      },
    },
  );
  if (!made) {
    throw new Error("certificate not made");
  }
  return made;
}

const ownCertificate: Make = async (s) => {
  const { id } = await certificateOf(world.user.id);
  return {
    data: { id },
    check: (a) => {
      if (s.caller === "user") {
        const pdf = a.data?.base64 ? Buffer.from(a.data.base64, "base64").toString("latin1") : a.body;
        expect(pdf.startsWith("%PDF-")).toBe(true);
      } else {
        expect(a.body).not.toContain("Ulla Matrix");
      }
    },
  };
};

/** Any participant's certificate: only an admin gets its PDF. */
const someCertificate: Make = async (s) => {
  const { id } = await certificateOf(world.otherUser.id);
  return {
    data: { id },
    check: (a) => {
      if (s.caller === "admin") {
        expect(Buffer.from(a.data.base64, "base64").toString("latin1").startsWith("%PDF-")).toBe(true);
      }
    },
  };
};

/** A current certificate the admin revokes; nobody else's call leaves a trace. */
const currentCertificate: Make = async () => {
  const { id } = await certificateOf(world.user.id);
  const current = and(eq(schema.certificates.id, id), isNull(schema.certificates.revokedAt));
  return { data: { id, reason: "Matrix" }, intact: rowsStay(schema.certificates, current, 1) };
};

/** A recording's certificate with its passed learning check, which a re-issue can make again. */
const reissuableCertificate: Make = async () => {
  const congress = await freshCongress();
  const pkg = await createPackage(db(), congress.id);
  const [check] = await db().insert(schema.learningChecks).values({ packageId: pkg.id }).returning();
  const checkId = check?.id ?? 0;
  await db()
    .insert(schema.learningCheckAttempts)
    .values({ checkId, userId: world.user.id, shown: [], submittedAt: new Date(), passed: true });
  const { id } = await certificateOf(world.user.id, "recording", { checkId, congressId: congress.id });
  const current = and(eq(schema.certificates.id, id), isNull(schema.certificates.replacedBy));
  return { data: { id }, intact: rowsStay(schema.certificates, current, 1) };
};

const issuerDraft: Make = () => {
  const name = `Matrix-Institut ${unique()}`;
  return {
    data: { name, address: "Weg 1", signatory: "Dr. M." },
    intact: rowsStay(schema.certificateIssuer, eq(schema.certificateIssuer.name, name), 0),
  };
};

const trpc =
  (make: Make) =>
  async (s: Scene): Promise<Call> => {
    const { data, ...checks } = await make(s);
    return { input: data, ...checks };
  };

/** How a REST call sends the fixture's data: JSON, multipart fields, one multipart field holding JSON, url-encoded. */
type Encoding = "json" | "form" | { jsonField: string } | "urlencoded";

function multipart(fields: Record<string, string>, image?: Buffer): RequestBody {
  const boundary = "----matrix-boundary-5d1e";
  const part = (name: string, extra = "") =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`;
  const chunks: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`${part(name)}\r\n${value}\r\n`),
  );
  if (image) {
    const head = part("file", '; filename="bild.png"\r\nContent-Type: image/png');
    chunks.push(Buffer.from(`${head}\r\n`), image, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(chunks) };
}

function encode(encoding: Encoding, data: Record<string, unknown>): RequestBody {
  const strings = () => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
  if (encoding === "json") {
    return { type: "application/json", payload: JSON.stringify(data) };
  }
  if (encoding === "form") {
    return multipart(strings());
  }
  if (encoding === "urlencoded") {
    return { type: "application/x-www-form-urlencoded", payload: new URLSearchParams(strings()).toString() };
  }
  return multipart({ [encoding.jsonField]: JSON.stringify(data) });
}

/** The fixture's data in the URL (`url`) and/or the body (`body`). */
const rest =
  // biome-ignore lint/suspicious/noExplicitAny: URL builders read the fixture's fields
    (make: Make, options: { url?: (data: any) => string; body?: Encoding } = {}) =>
    async (s: Scene): Promise<Call> => {
      const { data, ...checks } = await make(s);
      return { url: options.url?.(data), body: options.body && encode(options.body, data), ...checks };
    };

// ---------------------------------------------------------------------------------------------------------
// the table: one row per procedure path and per "METHOD url" of the app

const MATRIX: Record<string, Expectation> = {
  // --- tRPC: account and sign-in flows (public by design; every call gets an account or token of its own)
  "account.getProfile": { access: "user", call: trpc(ownProfile) },
  "account.listConsents": { access: "user", call: trpc(ownConsents) },
  "account.setNewsletter": { access: "user", call: trpc(fixed(() => ({ newsletter: false }))) },
  "account.export": { access: "user", call: trpc(ownExport) },
  // each caller sets (and so can only ever reach) their own EFN; an empty field clears it
  "account.setEfn": { access: "user", call: trpc(fixed(() => ({ efn: "" }))) },
  // deleting the shared callers would end the suite: a wrong password shows that every signed-in caller
  // reaches only the password check of their own account (privacy.int.test.ts deletes real accounts)
  "account.delete": {
    access: "user",
    call: trpc(fixed(() => ({ password: "nicht-das-Passwort" }))),
    except: { user: 400, otherUser: 400, admin: 400 },
  },
  "legal.getPage": { access: "public", call: trpc(fixed(() => ({ slug: "impressum" }))) },
  "auth.register": { access: "public", call: trpc(registration) },
  "auth.confirmMail": { access: "public", call: trpc(confirmationLink) },
  "auth.resendConfirmation": { access: "public", call: trpc(emailOfFreshUser) },
  "auth.login": { access: "public", call: trpc(credentials) },
  "auth.loginTwoFactor": { access: "public", call: trpc(twoFactorLogin) },
  "auth.refresh": { access: "public", call: trpc(refreshToken) },
  "auth.logout": { access: "public", call: trpc(refreshToken) },
  "auth.requestPasswordReset": { access: "public", call: trpc(emailOfFreshUser) },
  "auth.validateResetToken": { access: "public", call: trpc(resetLink) },
  "auth.resetPassword": { access: "public", call: trpc(resetLink) },
  "auth.setMigrationPassword": { access: "public", call: trpc(migrationLink) },
  "auth.requestSignInLink": { access: "public", call: trpc(emailOfFreshUser) },
  "auth.signInWithLink": { access: "public", call: trpc(signInLink) },
  "system.ping": { access: "public" },

  // --- tRPC: visitor area
  "congress.getOverview": { access: "user", call: trpc(ownOverview) },
  "congress.get": { access: "user", call: trpc(webinarCongress) },
  "congress.countParticipations": { access: "user", call: trpc(countsOfHiddenCongress) },
  "congress.getCalendar": { access: "user", call: trpc(webinarCalendar) },
  "attendance.record": { access: "paid", call: trpc(webinarAttendance) },
  "attendance.listMine": { access: "user" },
  "attendance.heartbeat": { access: "paid", call: trpc(ticketedHeartbeat) },
  "attendance.answerPresenceCheck": { access: "owner", call: trpc(presenceCheckOfUser) },
  "attendance.getCertificate": { access: "paid", call: trpc(attendedCongress) },
  "congress.getContent": { access: "paid", call: trpc(ticketedCongressContent) },
  "participation.create": { access: "user", call: trpc(freeCongress) },
  "participation.cancel": { access: "owner", call: trpc(participationOfUser) },
  "packages.get": { access: "user", call: trpc(boughtPackage) },
  // everybody may open a package page; only who paid gets its videos
  "packages.getPage": {
    access: "paid",
    except: { otherUser: "ok", admin: "ok" },
    call: trpc(paidPackagePage),
  },
  "checkout.getUrl": { access: "user", call: trpc(checkoutOfOwnAccount) },
  "checkout.getReturnState": { access: "user", call: trpc(checkoutReturnOfOwnAccount) },
  "video.getPreview": {
    access: "user",
    call: trpc(fixed(() => ({ url: "https://player.vimeo.com/video/1" }))),
  },
  "gated.resolve": { access: "public", call: trpc(gatedPath) },
  "gated.getStatus": { access: "user", call: trpc(gatedPath) },
  "gated.unlock": { access: "paid", call: trpc(gatedPassword) },

  // --- tRPC: administration (the order tables are the only place listing other people's orders)
  "admin.twoFactor.getStatus": { access: "admin" },
  "admin.twoFactor.begin": {
    access: "admin",
    call: trpc(async (s) => ({ ...(await ownTwoFactor(false)(s)), data: {} })),
  },
  "admin.twoFactor.enable": { access: "admin", call: trpc(ownTwoFactor(false)) },
  "admin.twoFactor.renewRecoveryCodes": { access: "admin", call: trpc(ownTwoFactor(true)) },
  "admin.twoFactor.disable": { access: "admin", call: trpc(ownTwoFactor(true)) },
  "admin.getDashboard": { access: "admin" },
  "admin.fortbildung.getDay": { access: "admin", call: trpc(participantsOfWebinar) },
  "fortbildung.getMyDays": { access: "user", call: trpc(fixed(() => ({ congressId: world.congress.id }))) },
  "learningChecks.listForPackage": { access: "user", call: trpc(fixed(() => ({ packageId: world.pkg.id }))) },
  "learningChecks.start": { access: "paid", call: trpc(learningCheckStart) },
  "learningChecks.submit": { access: "owner", call: trpc(learningCheckAttemptOfUser) },
  "admin.learningChecks.getPage": { access: "admin", call: trpc(fixed(() => ({ page: 1 }))) },
  "admin.learningChecks.get": { access: "admin", call: trpc(existingLearningCheck) },
  "admin.learningChecks.save": { access: "admin", call: trpc(newLearningCheck) },
  "admin.learningChecks.delete": { access: "admin", call: trpc(existingLearningCheck) },
  "certificate.listMine": { access: "user" },
  "certificate.getPdf": { access: "owner", call: trpc(ownCertificate) },
  "certificate.verify": { access: "public", call: trpc(fixed(() => ({ code: "x".repeat(24) }))) },
  "admin.certificates.getIssuer": { access: "admin" },
  "admin.certificates.saveIssuer": { access: "admin", call: trpc(issuerDraft) },
  "admin.certificates.list": {
    access: "admin",
    call: trpc(fixed(() => ({ congressId: world.congress.id, page: 1 }))),
  },
  "admin.certificates.getPdf": { access: "admin", call: trpc(someCertificate) },
  "admin.certificates.revoke": { access: "admin", call: trpc(currentCertificate) },
  "admin.certificates.reissue": { access: "admin", call: trpc(reissuableCertificate) },
  "admin.congresses.list": { access: "admin" },
  "admin.congresses.getPage": { access: "admin", call: trpc(fixed(() => ({ page: 1 }))) },
  "admin.congresses.save": { access: "admin", call: trpc(newCongress) },
  "admin.congresses.delete": { access: "admin", call: trpc(existingCongress) },
  "admin.packages.list": { access: "admin" },
  "admin.packages.getPage": { access: "admin", call: trpc(fixed(() => ({ page: 1 }))) },
  "admin.packages.save": { access: "admin", call: trpc(newPackage) },
  "admin.packages.delete": { access: "admin", call: trpc(existingPackage) },
  "admin.users.list": { access: "admin", call: trpc(fixed(() => ({}))) },
  "admin.users.get": { access: "admin", call: trpc(fixed(() => ({ id: world.user.id }))) },
  "admin.users.save": { access: "admin", call: trpc(promotion) },
  "admin.users.setActive": { access: "admin", call: trpc(deactivation) },
  "admin.users.delete": { access: "admin", call: trpc(existingUser) },
  "admin.images.upload": { access: "admin", call: () => ({ body: multipart({}, png) }) },
  "admin.webinarReports.preview": { access: "admin", call: participantReport },
  "admin.webinarReports.import": { access: "admin", call: participantReport },
  "admin.legalPages.save": { access: "admin", call: trpc(legalPageText) },
  "admin.mailTemplates.getCatalogue": { access: "admin" },
  "admin.mailTemplates.list": { access: "admin" },
  "admin.mailTemplates.getPage": {
    access: "admin",
    call: trpc(fixed(() => ({ congressId: null, page: 1 }))),
  },
  "admin.mailTemplates.getCopySource": {
    access: "admin",
    call: trpc(fixed(() => ({ congressId: world.congress.id }))),
  },
  "admin.mailTemplates.save": { access: "admin", call: trpc(newTemplate) },
  "admin.mailTemplates.create": { access: "admin", call: trpc(templateCreate) },
  "admin.mailTemplates.copy": { access: "admin", call: trpc(templateCopy) },
  "admin.mailTemplates.preview": { access: "admin", call: trpc(fixed(() => TEMPLATE)) },
  "admin.mailTemplates.sendTest": { access: "admin", call: trpc(testMail) },
  "admin.audit.list": { access: "admin", call: trpc(fixed(() => ({ entity: "congress" }))) },
  "admin.audit.listActors": { access: "admin" },
  "admin.mailOutbox.list": { access: "admin", call: trpc(fixed(() => ({ status: "failed" }))) },
  "admin.mailOutbox.resend": { access: "admin", call: trpc(failedMail) },
  "admin.paymentNotifications.list": { access: "admin", call: trpc(storedNotification("list")) },
  "admin.paymentNotifications.get": { access: "admin", call: trpc(storedNotification("id")) },
  "admin.contents.list": { access: "admin" },
  "admin.contents.getPage": { access: "admin", call: trpc(fixed(() => ({ search: "", page: 1 }))) },
  "admin.contents.save": { access: "admin", call: trpc(newContent) },
  "admin.contents.delete": { access: "admin", call: trpc(existingContent) },
  // not a Vimeo address: answered without asking the video host
  "admin.contents.getVideoLength": {
    access: "admin",
    call: trpc(fixed(() => ({ url: "https://example.com/video/1" }))),
  },
  "orders.list": { access: "admin", call: trpc(ordersOfUser) },
  "orders.listPaidOrders": { access: "admin", call: trpc(paidOrders) },
  "orders.create": { access: "admin", call: trpc(adminOrder("ticket")) },

  // --- REST: account and sign-in flows (spec section 7)
  "GET /api/account/profile": { access: "user", call: rest(ownProfile) },
  "POST /api/auth/login": { access: "public", call: rest(credentials, { body: "json" }) },
  "POST /api/auth/login/two-factor": { access: "public", call: rest(twoFactorLogin, { body: "json" }) },
  "POST /api/auth/token/refresh": { access: "public", call: rest(refreshToken, { body: "json" }) },
  "POST /api/auth/logout": { access: "public", call: rest(refreshToken, { body: "json" }) },
  "POST /api/register": { access: "public", call: rest(registration, { body: { jsonField: "user" } }) },
  "POST /api/register/resend": { access: "public", call: rest(emailOfFreshUser, { body: "json" }) },
  "POST /api/confirm-mail": { access: "public", call: rest(confirmationLink, { body: "form" }) },
  "POST /api/auth/resetPassword": { access: "public", call: rest(emailOfFreshUser, { body: "json" }) },
  "GET /api/auth/resetPassword/validate/:token": {
    access: "public",
    call: rest(resetLink, { url: (d) => `/api/auth/resetPassword/validate/${d.token}` }),
  },
  "POST /api/auth/resetPassword/reset/:token": {
    access: "public",
    call: rest(resetLink, { url: (d) => `/api/auth/resetPassword/reset/${d.token}`, body: "json" }),
  },
  "POST /api/migration/set-password": { access: "public", call: rest(migrationLink, { body: "form" }) },

  // --- REST: visitor area
  "GET /api/congress": { access: "user" },
  "GET /api/congress/:id": {
    access: "user",
    call: rest(webinarCongress, { url: (d) => `/api/congress/${d.congressId}` }),
  },
  "POST /api/participation": { access: "user", call: rest(freeCongress, { body: "form" }) },
  "GET /api/congress/:id/calendar.ics": {
    access: "user",
    call: rest(webinarCalendar, { url: (d) => `/api/congress/${d.congressId}/calendar.ics` }),
  },
  "GET /api/congress/:id/attendance-confirmation.pdf": {
    access: "paid",
    call: rest(attendedCongress, { url: (d) => `/api/congress/${d.congressId}/attendance-confirmation.pdf` }),
  },
  "GET /api/certificates/:id.pdf": {
    access: "owner",
    call: rest(ownCertificate, { url: (d) => `/api/certificates/${d.id}.pdf` }),
  },
  "DELETE /api/participation/:id": {
    access: "owner",
    call: rest(participationOfUser, { url: (d) => `/api/participation/${d.participationId}` }),
  },
  "GET /api/congress-package/is-user-qualified/:id": {
    access: "paid",
    except: { otherUser: "ok", admin: "ok" },
    call: rest(paidPackagePage, { url: (d) => `/api/congress-package/is-user-qualified/${d.packageId}` }),
  },
  "GET /api/congress-package/:id": {
    access: "user",
    call: rest(boughtPackage, { url: (d) => `/api/congress-package/${d.packageId}` }),
  },
  "GET /api/congress-package": { access: "user" },

  // --- REST: administration
  "GET /api/congress-package-order": {
    access: "admin",
    call: rest(ordersOfUser, {
      url: (d) => `/api/congress-package-order?search=${encodeURIComponent(d.search)}`,
    }),
  },
  "POST /api/congress-package-order": {
    access: "admin",
    call: rest(adminOrder("package"), { body: { jsonField: "congressPackageOrderData" } }),
  },
  "GET /api/congress-ticket-order": {
    access: "admin",
    call: rest(ordersOfUser, {
      url: (d) => `/api/congress-ticket-order?search=${encodeURIComponent(d.search)}`,
    }),
  },
  "POST /api/congress-ticket-order": {
    access: "admin",
    call: rest(adminOrder("ticket"), { body: { jsonField: "congressTicketOrderData" } }),
  },
  "POST /api/congress": { access: "admin", call: rest(newCongress, { body: { jsonField: "congressData" } }) },
  "DELETE /api/congress/:id": {
    access: "admin",
    call: rest(existingCongress, { url: (d) => `/api/congress/${d.id}` }),
  },
  "POST /api/congress-package": {
    access: "admin",
    call: rest(newPackage, { body: { jsonField: "congressPackageData" } }),
  },
  "DELETE /api/congress-package/:id": {
    access: "admin",
    call: rest(existingPackage, { url: (d) => `/api/congress-package/${d.id}` }),
  },
  "GET /api/user": { access: "admin" },
  "POST /api/user": { access: "admin", call: rest(promotion, { body: { jsonField: "userData" } }) },
  "DELETE /api/user/:id": { access: "admin", call: rest(existingUser, { url: (d) => `/api/user/${d.id}` }) },
  "GET /api/congress-content": { access: "admin" },
  "POST /api/congress-content": {
    access: "admin",
    call: rest(newContent, { body: { jsonField: "congressContentData" } }),
  },
  "DELETE /api/congress-content/:id": {
    access: "admin",
    call: rest(existingContent, { url: (d) => `/api/congress-content/${d.id}` }),
  },
  "GET /api/mail-template": { access: "admin" },
  "POST /api/mail-template": {
    access: "admin",
    call: rest(newTemplate, { body: { jsonField: "mailTemplateData" } }),
  },
  "POST /api/mail-template/copy": { access: "admin", call: rest(templateCopy, { body: "form" }) },
  "POST /api/images": { access: "admin", call: () => ({ body: multipart({}, png) }) },
  "GET /api/admin/exports/participants/:congressId.:format": {
    access: "admin",
    service: "participantsExport",
    call: rest(participantsOfWebinar, {
      url: (d) => `/api/admin/exports/participants/${d.congressId}.csv`,
    }),
  },
  "GET /api/admin/exports/fortbildung/:congressId.:format": {
    access: "admin",
    service: "fortbildungExport",
    call: rest(participantsOfWebinar, {
      url: (d) => `/api/admin/exports/fortbildung/${d.congressId}.csv?reached=nicht-erreicht`,
    }),
  },
  "GET /api/admin/exports/chamber-report/:congressId.:format": {
    access: "admin",
    service: "chamberReport",
    call: rest(chamberReportOfEndedEvent, {
      url: (d) => `/api/admin/exports/chamber-report/${d.congressId}.csv?day=${d.day}&list=ohne-efn`,
    }),
  },
  "GET /api/admin/exports/recording-chamber-report/:learningCheckId.:format": {
    access: "admin",
    service: "recordingChamberReport",
    call: rest(recordingReportOfPass, {
      url: (d) => `/api/admin/exports/recording-chamber-report/${d.learningCheckId}.csv?list=ohne-efn`,
    }),
  },
  "GET /api/admin/exports/package-orders.:format": {
    access: "admin",
    service: "orderExport",
    call: () => ({ url: "/api/admin/exports/package-orders.xlsx" }),
  },
  "GET /api/admin/exports/ticket-orders.:format": {
    access: "admin",
    service: "orderExport",
    call: rest(ordersOfUser, {
      url: (d) => `/api/admin/exports/ticket-orders.csv?search=${encodeURIComponent(d.search)}`,
    }),
  },
  "GET /api/admin/exports/users.:format": {
    access: "admin",
    service: "usersExport",
    call: () => ({ url: "/api/admin/exports/users.csv?email=matrix." }),
  },

  // --- REST: the checkout provider, operations, files
  "POST /api/digistore/ipn": {
    access: "signed",
    service: "handleIpn",
    call: rest(unsignedPayment, { body: "urlencoded" }),
  },
  // Digistore24 validates the IPN URL with a plain GET when it is saved; answers OK, reads nothing
  "GET /api/digistore/ipn": { access: "public", service: "handleIpn" },
  "GET /healthz": { access: "public" },
  "GET /readyz": { access: "public" },
  "GET /.well-known/security.txt": { access: "public" },
  "GET /metrics": { access: "operator" },
  "GET /uploads/images/:fileName": {
    access: "public",
    call: rest(storedImage, { url: (d) => `/uploads/images/${d.fileName}` }),
  },
  "GET /uploads/video-previews/:key": {
    access: "public",
    call: rest(videoThumbnail, { url: (d) => `/uploads/video-previews/${d.key}` }),
  },
};

// ---------------------------------------------------------------------------------------------------------
// enumerating the app and calling it

type ProcedureType = "query" | "mutation" | "subscription";
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: ProcedureType } }>;

/** Every procedure path, and every "METHOD url" outside /trpc (tRPC's own route carries the procedures). */
function endpointsOfApp(): string[] {
  const routes = t.app.routeList.flatMap(({ method, url }) =>
    (Array.isArray(method) ? method : [method])
      // Fastify adds a HEAD route for every GET by itself
      .filter((m) => m !== "HEAD" && !url.startsWith("/trpc/"))
      .map((m) => `${m} ${url}`),
  );
  return [...Object.keys(procedures), ...new Set(routes)];
}

const isRoute = (key: string) => key.includes(" ");

async function callProcedure(path: string, call: Call, token: string | undefined): Promise<Answer> {
  if (call.body) {
    // a procedure taking form data (an upload) is posted like a REST form
    return callRoute(`POST /trpc/${path}`, call, token);
  }
  const options = { token, ip: nextIp() };
  const res =
    procedures[path]?._def.type === "mutation"
      ? await trpcMutation(t, path, call.input, options)
      : await trpcQuery(t, path, call.input, options);
  return { status: res.status, body: res.body, data: res.data, reason: res.error?.reason };
}

async function callRoute(key: string, call: Call, token: string | undefined): Promise<Answer> {
  const [method, url] = key.split(" ") as ["GET" | "POST" | "DELETE", string];
  const res = await t.app.inject({
    method,
    url: call.url ?? url,
    remoteAddress: nextIp(),
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(call.body && { "content-type": call.body.type }),
    },
    ...(call.body && { payload: call.body.payload }),
  });
  const isJson = String(res.headers["content-type"] ?? "").includes("json");
  return { status: res.statusCode, body: res.body, data: isJson ? res.json() : undefined };
}

const outcomeOf = (row: Expectation, caller: CallerKind): Outcome =>
  row.except?.[caller] ?? RULES[row.access][caller];

async function runRow(key: string, row: Expectation, caller: CallerKind): Promise<void> {
  const scene: Scene = { caller, me: caller === "anonymous" ? undefined : world[caller] };
  // signed per call with the account's current session version: a call that ends the caller's sessions
  // (switching two-factor login on or off) must not leave the shared callers without a valid token
  const token =
    caller === "anonymous"
      ? undefined
      : await t.tokenFor(world[caller].id, caller === "admin" ? ["ROLE_USER", "ROLE_ADMIN"] : undefined);
  const call = (await row.call?.(scene)) ?? {};
  const answer = isRoute(key) ? await callRoute(key, call, token) : await callProcedure(key, call, token);
  const expected = outcomeOf(row, caller);
  const context = `${key} as ${caller}: ${answer.status} ${answer.body.slice(0, 300)}`;
  if (expected === "ok") {
    expect(answer.status >= 200 && answer.status < 300, context).toBe(true);
  } else {
    expect(answer.status, context).toBe(expected);
    await call.intact?.();
  }
  await call.check?.(answer);
}

// ---------------------------------------------------------------------------------------------------------
// the tests

describe("authorisation matrix", () => {
  it("has a row for every procedure and route of the app, and none for anything else", () => {
    const endpoints = endpointsOfApp();
    // `missing`: procedures or routes without a row; `stale`: rows for procedures or routes that do not exist
    const missing = endpoints.filter((e) => !(e in MATRIX));
    const stale = Object.keys(MATRIX).filter((k) => !endpoints.includes(k));
    expect({ missing, stale }, "MATRIX must have exactly one row per endpoint of the app").toEqual({
      missing: [],
      stale: [],
    });
    expect(t.app.routeList.some((r) => r.url === "/trpc/:path")).toBe(true);
  });

  it("every REST path under /api declares the role its row expects, and names the service it reads past the procedures", () => {
    const problems: string[] = [];
    for (const route of t.app.routeList.filter((r) => r.url.startsWith("/api/"))) {
      for (const method of (Array.isArray(route.method) ? route.method : [route.method]).filter(
        (m) => m !== "HEAD",
      )) {
        const key = `${method} ${route.url}`;
        const row = MATRIX[key];
        if (!route.role) {
          problems.push(`${key}: declares no role`);
        } else if (row && DECLARED_ROLE[row.access] !== route.role) {
          problems.push(`${key}: declares ${route.role}, its row ${row.access}`);
        }
        if (row && row.service !== route.service) {
          problems.push(`${key}: reads ${route.service ?? "procedures only"}, its row names ${row.service}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  describe.each(Object.entries(MATRIX))("%s", (key, row) => {
    const cases = CALLERS.map((caller) => ({ caller, outcome: outcomeOf(row, caller) }));
    it.each(cases)("$caller: $outcome", async ({ caller }) => {
      await runRow(key, row, caller);
    });
  });
});

describe("ownership and paid access, step by step", () => {
  const as = async (user: User) => ({ token: await t.tokenFor(user.id), ip: nextIp() });

  it("lets only the owner cancel a participation", async () => {
    const [owner, other] = [await freshUser(), await freshUser()];
    const id = await participate(db(), owner.id, (await freshCongress()).id);
    const refused = await trpcMutation(t, "participation.cancel", { participationId: id }, await as(other));
    expect(refused.status).toBe(404);
    await rowsStay(participations, eq(participations.id, id), 1)();
    const done = await trpcMutation(t, "participation.cancel", { participationId: id }, await as(owner));
    expect(done.status).toBe(200);
    expect(await db().$count(participations, eq(participations.id, id))).toBe(0);
  });

  it("shows the content of a running ticketed event only once the ticket is paid", async () => {
    const visitor = await freshUser();
    const congress = await freshCongress({ digistoreIdTicket: 4711 });
    const url = videoUrl();
    await createContent(db(), congress.id, [{ urls: [url] }]);
    await participate(db(), visitor.id, congress.id);
    const content = async () =>
      trpcQuery(t, "congress.getContent", { congressId: congress.id }, await as(visitor));

    for (const order of [undefined, "canceled"] as const) {
      if (order) {
        await ticketOrder(db(), visitor.id, congress.id, order);
      }
      const refused = await content();
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain(url);
    }
    await ticketOrder(db(), visitor.id, congress.id, "paid");
    const paid = await content();
    expect(paid.status).toBe(200);
    expect(paid.body).toContain(url);
  });

  it("sends the videos of a package only to who paid for it", async () => {
    const buyer = await freshUser();
    const congress = await freshCongress({ firstDay: relDay(-20), lastDay: relDay(-19) });
    const url = videoUrl();
    await createContent(db(), congress.id, [{ urls: [url] }]);
    const pkg = await createPackage(db(), congress.id);
    const page = async (user: User) =>
      trpcQuery(t, "packages.getPage", { packageId: pkg.id }, await as(user));

    for (const order of [undefined, "canceled"] as const) {
      if (order) {
        await packageOrder(db(), buyer.id, pkg.id, order);
      }
      const refused = await page(buyer);
      expect(refused.data.isQualified).toBe(false);
      expect(refused.body).not.toContain(url);
    }
    await packageOrder(db(), buyer.id, pkg.id, "paid");
    const paid = await page(buyer);
    expect(paid.data.isQualified).toBe(true);
    expect(paid.body).toContain(url);
    // another visitor's view of the same package knows nothing of the purchase
    const other = await page(await freshUser());
    expect(other.data.packageData).toMatchObject({ bought: false, orderStatus: null, qualified: false });
    expect(other.body).not.toContain(url);
  });

  it("opens a gated page only for a signed-in visitor with the right password", async () => {
    const path = t.env.GATED_PATH_COUPLE_THERAPY;
    const password = t.env.GATED_PASSWORD_COUPLE_THERAPY;
    expect((await trpcMutation(t, "gated.unlock", { path, password }, { ip: nextIp() })).status).toBe(401);
    const visitor = await freshUser();
    const wrong = await trpcMutation(
      t,
      "gated.unlock",
      { path, password: password.toUpperCase() },
      await as(visitor),
    );
    expect(wrong.status).toBe(403);
    const locked = await trpcQuery(t, "packages.getPage", { packageId: 1 }, await as(visitor));
    expect(locked.data.isQualified).toBe(false);
    expect(locked.body).not.toContain(world.gatedVideo);
    expect((await trpcMutation(t, "gated.unlock", { path, password }, await as(visitor))).status).toBe(200);
    const open = await trpcQuery(t, "packages.getPage", { packageId: 1 }, await as(visitor));
    expect(open.data.isQualified).toBe(true);
    expect(open.body).toContain(world.gatedVideo);
  });

  it("accepts a payment notification only with a valid signature", async () => {
    const fields = { event: "connection_test" };
    const post = (payload: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/digistore/ipn",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(payload).toString(),
      });
    expect((await post(fields)).statusCode).toBe(403);
    const signed = await post({
      ...fields,
      sha_sign: digistoreSignature(fields, t.env.DIGISTORE_IPN_PASSPHRASE),
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.body.startsWith("OK")).toBe(true);
  });
});
