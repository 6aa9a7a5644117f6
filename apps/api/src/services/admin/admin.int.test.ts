import { randomBytes } from "node:crypto";
import { schema } from "@app/db";
import { MSG, MSG_ADMIN, MSG_VIDEO_LENGTH, MSG_VIDEO_LIVE } from "@app/shared";
import { and, count, eq, isNull } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminRestRoutes } from "../../rest/admin";
import { adminRouter } from "../../routers/admin";
import {
  createCongress,
  createPackage,
  createUser,
  packageOrder,
  participate,
  relDay,
  ticketOrder,
  trpcMutation,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

const {
  congressContents,
  congressPackageOrders,
  congressPackages,
  congressTicketOrders,
  congresses,
  images,
  participations,
  refreshTokens,
  users,
} = schema;

type User = typeof users.$inferSelect;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.db.db;

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

let admin: User;
let visitor: User;
let adminToken: string;
let userToken: string;
beforeAll(async () => {
  admin = await createUser(db(), {
    email: `admin.${unique()}@example.com`,
    roles: ["ROLE_USER", "ROLE_ADMIN"],
  });
  visitor = await createUser(db(), { email: `besucher.${unique()}@example.com` });
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
  userToken = await t.tokenFor(visitor.id);
});

// ---------------------------------------------------------------------------------------------------------
// requests

interface FilePart {
  field: string;
  fileName: string;
  contentType: string;
  data: Buffer;
}

interface Body {
  headers: Record<string, string>;
  payload: Buffer;
}

/** A multipart body with text fields and (binary) files, as the admin forms send them. */
function form(fields: Record<string, string>, files: FilePart[] = []): Body {
  const boundary = "----admin-test-boundary-7f3a";
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.fileName}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(chunks),
  };
}

const imageForm = (data: Buffer, fileName = "bild.png", contentType = "image/png") =>
  form({}, [{ field: "file", fileName, contentType, data }]);

async function rest(method: "GET" | "POST" | "DELETE", url: string, token?: string, body?: Body) {
  return t.app.inject({
    method,
    url,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...body?.headers },
    ...(body && { payload: body.payload }),
  });
}

const trpcAdminQuery = (path: string, input?: unknown) => trpcQuery(t, path, input, { token: adminToken });
const trpcAdminMutation = (path: string, input: unknown) =>
  trpcMutation(t, path, input, { token: adminToken });

// ---------------------------------------------------------------------------------------------------------
// data

/** A PNG of random pixels, unlike every other one (stored images are deduplicated by their WebP content). */
function png(size = 16): Promise<Buffer> {
  return sharp(randomBytes(size * size * 3), { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

async function pngWithExif(): Promise<Buffer> {
  return sharp(await png(24))
    .withMetadata({ exif: { IFD0: { Copyright: "Geheime Kamera", Artist: "Fotografin" } } })
    .png()
    .toBuffer();
}

/** The event form (`congressData`) as the web app sends it. */
function congressForm(values: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: `Admin-Kongress ${unique()}`,
    description: "Drei Tage Vorträge.",
    webinar: false,
    webinarUrl: "",
    webinarStartTime: "",
    visible: true,
    firstCongressDay: { date: "2026-05-01" },
    lastCongressDay: { date: "2026-05-03" },
    digistoreIdTicket: 0,
    digistoreIdTicketAndPackage: 0,
    extraParameters: {},
    ...values,
  };
}

function packageForm(congressId: number, values: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Admin-Paket ${unique()}`,
    congress: { id: congressId, title: "egal" },
    externalId: 4711,
    description: "Alle Aufzeichnungen.",
    availabilityDate: null,
    extraParameters: {},
    ...values,
  };
}

/** The learning-check editor (ADR 0119) for a fresh package, and a stored check. */
async function learningCheckForm(): Promise<Record<string, unknown>> {
  const pkg = await createPackage(db(), (await createCongress(db())).id);
  const answers = [
    { text: "Ja", correct: true },
    { text: "Nein", correct: false },
    { text: "Weiß nicht", correct: false },
  ];
  return { packageId: pkg.id, day: "", passPercent: "70", questions: [{ question: "Frage?", answers }] };
}
async function learningCheck(): Promise<number> {
  const pkg = await createPackage(db(), (await createCongress(db())).id);
  const [row] = await db()
    .insert(schema.learningChecks)
    .values({ packageId: pkg.id })
    .returning({ id: schema.learningChecks.id });
  return row?.id ?? 0;
}

/** The template edit dialog (`mailTemplateData`). */
const templateForm = (congressId: number | null) => ({
  name: "participation-confirmation",
  congress: congressId === null ? null : { id: congressId },
  subject: "Anmeldung: {{congressTitle}}",
  content: "<p>Hallo {{userFullName}}</p>",
  description: "",
});
const templateDraft = () => ({
  name: "password-reset",
  subject: `Test ${unique()}`,
  content: "<p>Hallo {{userFullName}}</p>",
});

const postCongress = (data: Record<string, unknown>, picture?: FilePart) =>
  rest(
    "POST",
    "/api/congress/",
    adminToken,
    form({ congressData: JSON.stringify(data) }, picture ? [picture] : []),
  );
const postPackage = (data: Record<string, unknown>, picture?: FilePart) =>
  rest(
    "POST",
    "/api/congress-package/",
    adminToken,
    form({ congressPackageData: JSON.stringify(data) }, picture ? [picture] : []),
  );
const postUser = (data: Record<string, unknown>, token = adminToken) =>
  rest("POST", "/api/user/", token, form({ userData: JSON.stringify(data) }));
const postContent = (data: Record<string, unknown>) =>
  rest("POST", "/api/congress-content/", adminToken, form({ congressContentData: JSON.stringify(data) }));

async function createContentRow(
  congressId: number,
  data: (typeof congressContents.$inferInsert)["data"] = { days: [] },
) {
  const [row] = await db()
    .insert(congressContents)
    .values({ congressId, type: "vimeo-url", data })
    .returning();
  if (!row) {
    throw new Error("content not created");
  }
  return row;
}

async function refreshToken(userId: number): Promise<void> {
  await db()
    .insert(refreshTokens)
    .values({
      userId,
      tokenHash: `hash-${unique()}`,
      familyId: `family-${unique()}`,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
}

const imageCount = async () => (await db().select({ n: count() }).from(images))[0]?.n ?? 0;
const countWhere = async (
  table:
    | typeof participations
    | typeof congressPackageOrders
    | typeof congressTicketOrders
    | typeof refreshTokens,
  userId: number,
) => (await db().select({ n: count() }).from(table).where(eq(table.userId, userId)))[0]?.n ?? 0;

const congressRow = async (id: number) =>
  (await db().select().from(congresses).where(eq(congresses.id, id)))[0];
const packageRow = async (id: number) =>
  (await db().select().from(congressPackages).where(eq(congressPackages.id, id)))[0];
const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0];

const storedImage = async (fileName: string) =>
  (await db().select().from(images).where(eq(images.fileName, fileName)))[0];

// ---------------------------------------------------------------------------------------------------------

/** An event with one template of its own (copying needs a source that has some), by id. */
async function congressWithTemplate(): Promise<number> {
  const congress = await createCongress(db());
  await db()
    .insert(schema.mailTemplates)
    .values({ name: "event-day", congressId: congress.id, subject: "Heute", content: "<p>Heute</p>" });
  return congress.id;
}

describe("access", () => {
  interface RestCall {
    method: "GET" | "POST" | "DELETE";
    /** the route's pattern in rest/admin.ts */
    route: string;
    /** builds the concrete url and body (fresh data for deletes) */
    make: () => Promise<{ url: string; body?: Body }>;
    status: number;
  }

  const restCalls: RestCall[] = [
    {
      method: "POST",
      route: "/congress",
      make: async () => ({
        url: "/api/congress/",
        body: form({ congressData: JSON.stringify(congressForm()) }),
      }),
      status: 200,
    },
    {
      method: "DELETE",
      route: "/congress/:id",
      make: async () => ({ url: `/api/congress/${(await createCongress(db())).id}` }),
      status: 200,
    },
    {
      method: "POST",
      route: "/congress-package",
      make: async () => ({
        url: "/api/congress-package/",
        body: form({ congressPackageData: JSON.stringify(packageForm((await createCongress(db())).id)) }),
      }),
      status: 200,
    },
    {
      method: "DELETE",
      route: "/congress-package/:id",
      make: async () => ({
        url: `/api/congress-package/${(await createPackage(db(), (await createCongress(db())).id)).id}`,
      }),
      status: 200,
    },
    {
      method: "GET",
      route: "/user",
      make: async () => ({ url: "/api/user/?name=&email=&page=1" }),
      status: 200,
    },
    {
      method: "POST",
      route: "/user",
      make: async () => {
        const u = await createUser(db());
        const data = {
          id: u.id,
          firstname: "Zugriff",
          lastname: "Test",
          email: u.email,
          active: true,
          admin: false,
        };
        return { url: "/api/user/", body: form({ userData: JSON.stringify(data) }) };
      },
      status: 200,
    },
    {
      method: "DELETE",
      route: "/user/:id",
      make: async () => ({ url: `/api/user/${(await createUser(db())).id}` }),
      status: 200,
    },
    {
      method: "GET",
      route: "/congress-content",
      make: async () => ({ url: "/api/congress-content?search=" }),
      status: 200,
    },
    {
      method: "POST",
      route: "/congress-content",
      make: async () => {
        const data = { congress: (await createCongress(db())).id, type: "vimeo-url", data: { days: [] } };
        return { url: "/api/congress-content/", body: form({ congressContentData: JSON.stringify(data) }) };
      },
      status: 200,
    },
    {
      method: "DELETE",
      route: "/congress-content/:id",
      make: async () => ({
        url: `/api/congress-content/${(await createContentRow((await createCongress(db())).id)).id}`,
      }),
      status: 200,
    },
    {
      method: "GET",
      route: "/mail-template",
      make: async () => ({ url: `/api/mail-template/?congress=${(await createCongress(db())).id}` }),
      status: 200,
    },
    {
      method: "POST",
      route: "/mail-template",
      make: async () => ({
        url: "/api/mail-template/",
        body: form({ mailTemplateData: JSON.stringify(templateForm((await createCongress(db())).id)) }),
      }),
      status: 200,
    },
    {
      method: "POST",
      route: "/mail-template/copy",
      make: async () => ({
        url: "/api/mail-template/copy",
        body: form({
          copy_from: String(await congressWithTemplate()),
          copy_to: String((await createCongress(db())).id),
        }),
      }),
      status: 200,
    },
    {
      method: "POST",
      route: "/images",
      make: async () => ({ url: "/api/images", body: imageForm(await png()) }),
      status: 201,
    },
  ];

  it("the table covers every admin REST path", () => {
    const key = (r: { method: string; route?: string; url?: string }) => `${r.method} ${r.route ?? r.url}`;
    expect(restCalls.map(key).sort()).toEqual(adminRestRoutes.map(key).sort());
  });

  const restCase = (c: RestCall) => [`${c.method} ${c.route}`, c] as const;

  it.each(restCalls.map(restCase))("REST %s: anonymous 401, ROLE_USER 403", async (_name, call) => {
    const { url, body } = await call.make();
    const anonymous = await rest(call.method, url, undefined, body);
    expect(anonymous.statusCode, anonymous.body).toBe(401);
    expect(anonymous.json()).toEqual({ title: MSG.unauthorizedTitle, detail: MSG.unauthorizedDetail });

    const user = await rest(call.method, url, userToken, body);
    expect(user.statusCode, user.body).toBe(403);
    expect(user.json()).toEqual({ title: MSG.forbiddenTitle, detail: MSG.forbiddenDetail });
  });

  const restAsAdmin = async (_name: string, call: RestCall) => {
    const { url, body } = await call.make();
    const res = await rest(call.method, url, adminToken, body);
    expect(res.statusCode, res.body).toBe(call.status);
  };
  it.each(restCalls.map(restCase))("REST %s: admin 2xx", restAsAdmin);

  interface TrpcCall {
    path: string;
    type: "query" | "mutation";
    input: () => Promise<unknown>;
  }

  const trpcCalls: TrpcCall[] = [
    { path: "congresses.list", type: "query", input: async () => undefined },
    { path: "congresses.getPage", type: "query", input: async () => ({ page: 1 }) },
    { path: "congresses.save", type: "mutation", input: async () => congressForm() },
    {
      path: "congresses.delete",
      type: "mutation",
      input: async () => ({ id: (await createCongress(db())).id }),
    },
    { path: "packages.list", type: "query", input: async () => undefined },
    { path: "packages.getPage", type: "query", input: async () => ({ page: 2 }) },
    {
      path: "packages.save",
      type: "mutation",
      input: async () => packageForm((await createCongress(db())).id),
    },
    {
      path: "packages.delete",
      type: "mutation",
      input: async () => ({ id: (await createPackage(db(), (await createCongress(db())).id)).id }),
    },
    { path: "getDashboard", type: "query", input: async () => undefined },
    { path: "fortbildung.getDay", type: "query", input: async () => ({ page: 1 }) },
    { path: "learningChecks.getPage", type: "query", input: async () => ({ page: 1 }) },
    { path: "learningChecks.get", type: "query", input: async () => ({ id: await learningCheck() }) },
    { path: "learningChecks.save", type: "mutation", input: async () => learningCheckForm() },
    { path: "learningChecks.delete", type: "mutation", input: async () => ({ id: await learningCheck() }) },
    {
      path: "legalPages.save",
      type: "mutation",
      input: async () => ({ slug: "impressum", html: "<p>Impressum</p>" }),
    },
    { path: "users.list", type: "query", input: async () => ({ name: "", email: "", page: 1 }) },
    { path: "users.get", type: "query", input: async () => ({ id: (await createUser(db())).id }) },
    {
      path: "users.save",
      type: "mutation",
      input: async () => {
        const u = await createUser(db());
        return {
          id: u.id,
          firstname: "Zugriff",
          lastname: "Trpc",
          email: u.email,
          active: true,
          admin: false,
        };
      },
    },
    {
      path: "users.setActive",
      type: "mutation",
      input: async () => ({ id: (await createUser(db())).id, active: false }),
    },
    { path: "users.delete", type: "mutation", input: async () => ({ id: (await createUser(db())).id }) },
    { path: "contents.list", type: "query", input: async () => ({ search: "" }) },
    { path: "contents.getPage", type: "query", input: async () => ({ search: "tag", page: 1 }) },
    {
      path: "contents.save",
      type: "mutation",
      input: async () => ({
        congress: (await createCongress(db())).id,
        type: "vimeo-url",
        data: { days: [] },
      }),
    },
    {
      path: "contents.delete",
      type: "mutation",
      input: async () => ({ id: (await createContentRow((await createCongress(db())).id)).id }),
    },
    // not a Vimeo address: answered without asking the video host
    {
      path: "contents.getVideoLength",
      type: "query",
      input: async () => ({ url: "https://example.com/v/1" }),
    },
    {
      path: "mailTemplates.getCatalogue",
      type: "query",
      input: async () => undefined,
    },
    {
      path: "mailTemplates.list",
      type: "query",
      input: async () => ({ congressId: (await createCongress(db())).id }),
    },
    { path: "mailTemplates.getPage", type: "query", input: async () => ({ congressId: null, page: 1 }) },
    {
      path: "mailTemplates.getCopySource",
      type: "query",
      input: async () => ({ congressId: (await createCongress(db())).id }),
    },
    {
      path: "mailTemplates.save",
      type: "mutation",
      input: async () => templateForm((await createCongress(db())).id),
    },
    {
      path: "mailTemplates.create",
      type: "mutation",
      input: async () => ({ congress: (await createCongress(db())).id, name: "event-day" }),
    },
    {
      path: "mailTemplates.copy",
      type: "mutation",
      input: async () => ({
        copy_from: await congressWithTemplate(),
        copy_to: (await createCongress(db())).id,
      }),
    },
    {
      path: "mailTemplates.preview",
      type: "mutation",
      input: async () => templateDraft(),
    },
    {
      path: "mailTemplates.sendTest",
      type: "mutation",
      input: async () => templateDraft(),
    },
    { path: "audit.list", type: "query", input: async () => ({ entity: "congress" }) },
    { path: "audit.listActors", type: "query", input: async () => undefined },
    { path: "mailOutbox.list", type: "query", input: async () => ({ status: "failed" }) },
    {
      path: "mailOutbox.resend",
      type: "mutation",
      input: async () => {
        const [mail] = await db()
          .insert(schema.mailOutbox)
          .values({
            idempotencyKey: `admin-test-failed:${unique()}`,
            // a mail without a link: one with a link needs its account for a fresh link (ADR 0091)
            templateName: "participation-confirmation",
            toEmail: `fehlgeschlagen.${unique()}@example.com`,
            status: "failed",
            attempts: 8,
          })
          .returning({ id: schema.mailOutbox.id });
        return { id: mail?.id };
      },
    },
    { path: "paymentNotifications.list", type: "query", input: async () => ({ outcome: "conflict" }) },
    {
      path: "paymentNotifications.get",
      type: "query",
      input: async () => {
        const [row] = await db()
          .insert(schema.paymentNotifications)
          .values({ event: "on_payment", signatureValid: true, outcome: "processed", payload: {} })
          .returning({ id: schema.paymentNotifications.id });
        return { id: row?.id };
      },
    },
  ];

  it("the table covers every admin.* procedure", () => {
    // the second factor needs codes of the caller's own authenticator: two-factor.int.test.ts and the
    // authorisation matrix cover those four procedures; the uploads take form data, not JSON: images.int.test.ts,
    // webinar-report.int.test.ts and the matrix cover them; the certificates need issued ones of their own:
    // certificates.int.test.ts and the matrix cover them
    const procedures = Object.keys(adminRouter._def.procedures).filter(
      (p) =>
        !p.startsWith("twoFactor.") &&
        !p.startsWith("webinarReports.") &&
        !p.startsWith("certificates.") &&
        p !== "images.upload",
    );
    expect(trpcCalls.map((c) => c.path).sort()).toEqual(procedures.sort());
  });

  const send = async (call: TrpcCall, token?: string) => {
    const input = await call.input();
    return call.type === "query"
      ? trpcQuery(t, `admin.${call.path}`, input, { token })
      : trpcMutation(t, `admin.${call.path}`, input, { token });
  };
  const trpcCase = (c: TrpcCall) => [c.path, c] as const;

  it.each(trpcCalls.map(trpcCase))("tRPC admin.%s: anonymous 401, ROLE_USER 403", async (_name, call) => {
    const anonymous = await send(call);
    expect(anonymous.status, anonymous.body).toBe(401);
    expect(anonymous.error?.detail).toBe(MSG.unauthorizedDetail);
    const user = await send(call, userToken);
    expect(user.status, user.body).toBe(403);
    expect(user.error?.detail).toBe(MSG.forbiddenDetail);
  });

  const trpcAsAdmin = async (_name: string, call: TrpcCall) => {
    const res = await send(call, adminToken);
    expect(res.status, res.body).toBe(200);
  };
  it.each(trpcCalls.map(trpcCase))("tRPC admin.%s: admin 2xx", trpcAsAdmin);

  it("an admin token stops working at once when the admin is demoted, deactivated or deleted", async () => {
    for (const change of ["demote", "deactivate", "delete"] as const) {
      const other = await createUser(db(), {
        email: `admin.${change}.${unique()}@example.com`,
        roles: ["ROLE_USER", "ROLE_ADMIN"],
      });
      const token = await t.tokenFor(other.id, ["ROLE_USER", "ROLE_ADMIN"]);
      expect((await trpcQuery(t, "admin.mailTemplates.getCatalogue", undefined, { token })).status).toBe(200);
      if (change === "delete") {
        await db().delete(schema.users).where(eq(schema.users.id, other.id));
      } else {
        await db()
          .update(schema.users)
          .set(change === "demote" ? { roles: ["ROLE_USER"] } : { active: false })
          .where(eq(schema.users.id, other.id));
      }
      const after = await trpcQuery(t, "admin.mailTemplates.getCatalogue", undefined, { token });
      expect(after.status, change).toBe(change === "demote" ? 403 : 401);
    }
  });

  it("reads no admin form before the role check: anonymous and visitors get 401/403, not 400", async () => {
    const visitorToken = await t.tokenFor(visitor.id);
    for (const url of [
      "/api/user/",
      "/api/congress-content/",
      "/api/mail-template/",
      "/api/mail-template/copy",
      "/api/congress-package-order/",
      "/api/congress-ticket-order/",
      "/api/images",
    ]) {
      expect((await rest("POST", url, undefined, form({}))).statusCode, url).toBe(401);
      expect((await rest("POST", url, visitorToken, form({}))).statusCode, url).toBe(403);
    }
  });

  it("GET /api/congress and /api/congress-package: admins get everything, visitors their own view", async () => {
    const hidden = await createCongress(db(), { visible: false, title: `Verborgen ${unique()}` });
    const past = await createCongress(db(), { firstDay: relDay(-20), lastDay: relDay(-19) });
    await participate(db(), visitor.id, past.id);
    const hiddenPackage = await createPackage(db(), hidden.id);

    const adminCongresses = await rest("GET", "/api/congress/", adminToken);
    expect(adminCongresses.statusCode).toBe(200);
    const list = adminCongresses.json() as { id: number; participationCount: number }[];
    expect(list.find((e) => e.id === hidden.id)).toMatchObject({ participationCount: 0 });
    expect(list.find((e) => e.id === past.id)).toMatchObject({ participationCount: 1 });
    expect(list.length).toBe((await db().select({ n: count() }).from(congresses))[0]?.n);

    const userCongresses = await rest("GET", "/api/congress/", userToken);
    expect(userCongresses.statusCode).toBe(200);
    const ids = (userCongresses.json() as { id: number }[]).map((e) => e.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(past.id);

    const adminPackages = await rest("GET", "/api/congress-package", adminToken);
    expect(adminPackages.statusCode).toBe(200);
    const pkgs = adminPackages.json() as { id: number; congress: { id: number; title: string } }[];
    expect(pkgs.find((p) => p.id === hiddenPackage.id)?.congress).toEqual({
      id: hidden.id,
      title: hidden.title,
    });
    expect(pkgs.length).toBe((await db().select({ n: count() }).from(congressPackages))[0]?.n);

    const userPackages = await rest("GET", "/api/congress-package", userToken);
    expect(userPackages.statusCode).toBe(200);
    expect((userPackages.json() as { id: number }[]).map((p) => p.id)).not.toContain(hiddenPackage.id);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("events", () => {
  it("creates an event with a PNG picture stored as WebP and served with ETag, immutable caching and 304", async () => {
    const data = congressForm({ extraParameters: { voucher: "FRUEH" }, webinarStartTime: "18:30" });
    const res = await postCongress(data, {
      field: "newPicture",
      fileName: "plakat.png",
      contentType: "image/png",
      data: await png(40),
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({
      title: data.title,
      description: data.description,
      firstCongressDay: { date: "2026-05-01" },
      lastCongressDay: { date: "2026-05-03" },
      participationCount: 0,
      webinarStartTime: "18:30",
      extraParameters: { voucher: "FRUEH" },
    });
    expect(saved.picture).toMatch(/^[0-9a-f]+\.webp$/);
    expect(await congressRow(saved.id)).toMatchObject({ title: data.title, picture: saved.picture });

    const image = await t.app.inject(`/uploads/images/${saved.picture}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/webp");
    expect(image.headers["cache-control"]).toContain("immutable");
    const etag = image.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect((await sharp(image.rawPayload).metadata()).format).toBe("webp");

    const again = await t.app.inject({
      url: `/uploads/images/${saved.picture}`,
      headers: { "if-none-match": String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    expect((await t.app.inject("/uploads/images/gibt-es-nicht.webp")).statusCode).toBe(404);
  });

  it("strips EXIF metadata from an uploaded picture", async () => {
    const source = await pngWithExif();
    expect((await sharp(source).metadata()).exif).toBeDefined();
    const res = await postCongress(congressForm(), {
      field: "newPicture",
      fileName: "foto.png",
      contentType: "image/png",
      data: source,
    });
    expect(res.statusCode, res.body).toBe(200);
    const fileName = res.json().picture as string;
    const served = await t.app.inject(`/uploads/images/${fileName}`);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("Geheime Kamera"))).toBe(false);
    const stored = await storedImage(fileName);
    expect((await sharp(stored?.data).metadata()).exif).toBeUndefined();
  });

  it("edits an event under the same id and keeps its picture", async () => {
    const created = (
      await postCongress(congressForm(), {
        field: "newPicture",
        fileName: "a.png",
        contentType: "image/png",
        data: await png(),
      })
    ).json();
    const before = (await db().select({ n: count() }).from(congresses))[0]?.n;
    const edited = await postCongress({
      ...congressForm({ title: "Neuer Titel", lastCongressDay: null, visible: false }),
      id: created.id,
      picture: created.picture,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      id: created.id,
      title: "Neuer Titel",
      lastCongressDay: null,
      visible: false,
    });
    expect(await congressRow(created.id)).toMatchObject({
      title: "Neuer Titel",
      lastDay: null,
      visible: false,
      picture: created.picture,
    });
    expect((await db().select({ n: count() }).from(congresses))[0]?.n).toBe(before);
  });

  it("refuses an empty title or description with the German messages", async () => {
    const before = (await db().select({ n: count() }).from(congresses))[0]?.n;
    const noTitle = await postCongress(congressForm({ title: "   " }));
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json()).toEqual({ title: MSG.validationTitle, detail: MSG_ADMIN.titleRequired });
    const noDescription = await postCongress(congressForm({ description: "" }));
    expect(noDescription.statusCode).toBe(400);
    expect(noDescription.json().detail).toBe(MSG_ADMIN.descriptionRequired);
    const neither = await postCongress(congressForm({ title: "", description: "" }));
    expect(neither.statusCode).toBe(400);
    expect(neither.json().detail).toContain(MSG_ADMIN.titleRequired);
    expect(neither.json().detail).toContain(MSG_ADMIN.descriptionRequired);
    expect((await db().select({ n: count() }).from(congresses))[0]?.n).toBe(before);
  });

  it("refuses an omitted title, package name or description with the German messages", async () => {
    const { title: _title, ...withoutTitle } = congressForm();
    const noTitle = await postCongress(withoutTitle);
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().detail).toBe(MSG_ADMIN.titleRequired);
    const c = await createCongress(db());
    const { name: _name, description: _description, ...withoutName } = packageForm(c.id);
    const noName = await postPackage(withoutName);
    expect(noName.statusCode).toBe(400);
    expect(noName.json().detail).toBe(`${MSG_ADMIN.nameRequired} ${MSG_ADMIN.descriptionRequired}`);
  });

  it("refuses a last day before the first", async () => {
    const res = await postCongress(
      congressForm({ firstCongressDay: { date: "2026-05-03" }, lastCongressDay: { date: "2026-05-01" } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(MSG_ADMIN.lastDayBeforeFirst);
    const sameDay = await postCongress(
      congressForm({ firstCongressDay: { date: "2026-05-03" }, lastCongressDay: { date: "2026-05-03" } }),
    );
    expect(sameDay.statusCode, sameDay.body).toBe(200);
  });

  it("a delete refused because of orders deletes nothing", async () => {
    const c = await createCongress(db());
    const content = await createContentRow(c.id);
    const pkg = await createPackage(db(), c.id);
    const buyer = await createUser(db());
    await participate(db(), buyer.id, c.id);
    await packageOrder(db(), buyer.id, pkg.id, "paid");
    expect((await rest("DELETE", `/api/congress/${c.id}`, adminToken)).statusCode).toBeGreaterThanOrEqual(
      400,
    );
    expect(
      (await rest("DELETE", `/api/congress-package/${pkg.id}`, adminToken)).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect(await congressRow(c.id)).toBeDefined();
    expect(await packageRow(pkg.id)).toBeDefined();
    expect(
      await db().select().from(congressContents).where(eq(congressContents.id, content.id)),
    ).toHaveLength(1);
    expect(await countWhere(participations, buyer.id)).toBe(1);
    expect(await countWhere(congressPackageOrders, buyer.id)).toBe(1);
  });

  it("deletes an event with its contents, packages and participations", async () => {
    const c = await createCongress(db());
    const other = await createCongress(db());
    await createContentRow(c.id);
    await createPackage(db(), c.id);
    await createPackage(db(), c.id);
    await participate(db(), visitor.id, c.id);
    const otherPackage = await createPackage(db(), other.id);

    const res = await rest("DELETE", `/api/congress/${c.id}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: c.id });
    expect(await congressRow(c.id)).toBeUndefined();
    expect(
      await db().select().from(congressContents).where(eq(congressContents.congressId, c.id)),
    ).toHaveLength(0);
    expect(
      await db().select().from(congressPackages).where(eq(congressPackages.congressId, c.id)),
    ).toHaveLength(0);
    expect(await db().select().from(participations).where(eq(participations.congressId, c.id))).toHaveLength(
      0,
    );
    expect(await packageRow(otherPackage.id)).toBeDefined();

    const again = await rest("DELETE", `/api/congress/${c.id}`, adminToken);
    expect(again.statusCode).toBe(404);
  });

  it("refuses to delete an event with a ticket order or a package order (409), deleting nothing", async () => {
    for (const kind of ["ticket", "package"] as const) {
      const c = await createCongress(db());
      const content = await createContentRow(c.id);
      const pkg = await createPackage(db(), c.id);
      const buyer = await createUser(db());
      await participate(db(), buyer.id, c.id);
      if (kind === "ticket") {
        await ticketOrder(db(), buyer.id, c.id, "canceled");
      } else {
        await packageOrder(db(), buyer.id, pkg.id, "paid");
      }
      const res = await rest("DELETE", `/api/congress/${c.id}`, adminToken);
      expect(res.statusCode, kind).toBe(409);
      expect(res.json(), kind).toEqual({
        title: MSG.adminDeleteFailedTitle,
        detail: MSG_ADMIN.congressHasOrders,
      });
      expect(await congressRow(c.id), kind).toBeDefined();
      expect(await packageRow(pkg.id), kind).toBeDefined();
      expect(
        await db().select().from(congressContents).where(eq(congressContents.id, content.id)),
        kind,
      ).toHaveLength(1);
      expect(await countWhere(participations, buyer.id), kind).toBe(1);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("images", () => {
  it("accepts a PNG named bild.exe sent as application/octet-stream (judged by content)", async () => {
    const before = await imageCount();
    const res = await rest(
      "POST",
      "/api/images",
      adminToken,
      imageForm(await png(), "bild.exe", "application/octet-stream"),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { fileName, url } = res.json();
    expect(fileName).toMatch(/^[0-9a-f]+\.webp$/);
    expect(url).toBe(`/uploads/images/${fileName}`);
    expect(await imageCount()).toBe(before + 1);
    const served = await t.app.inject(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
  });

  it("accepts a JPEG and a WebP", async () => {
    for (const [format, data] of [
      [
        "jpeg",
        await sharp(await png())
          .jpeg()
          .toBuffer(),
      ],
      [
        "webp",
        await sharp(await png())
          .webp()
          .toBuffer(),
      ],
    ] as const) {
      const res = await rest(
        "POST",
        "/api/images",
        adminToken,
        imageForm(data, `bild.${format}`, `image/${format}`),
      );
      expect(res.statusCode, format).toBe(201);
    }
  });

  const refused = async (data: Buffer, fileName: string, contentType: string) => {
    const before = await imageCount();
    const res = await rest("POST", "/api/images", adminToken, imageForm(data, fileName, contentType));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toBe(MSG_ADMIN.imageInvalid);
    expect(await imageCount()).toBe(before);
  };

  it("refuses an HTML file named bild.png sent as image/png, storing nothing", async () => {
    await refused(
      Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"),
      "bild.png",
      "image/png",
    );
  });

  it("refuses a truncated PNG (its first 100 bytes), storing nothing", async () => {
    const whole = await png(64);
    expect(whole.length).toBeGreaterThan(100);
    await refused(whole.subarray(0, 100), "bild.png", "image/png");
  });

  it("refuses a GIF", async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0f0" } })
      .gif()
      .toBuffer();
    await refused(gif, "bild.gif", "image/gif");
  });

  it("refuses an empty upload and a request without a file", async () => {
    await refused(Buffer.alloc(0), "leer.png", "image/png");
    const res = await rest("POST", "/api/images", adminToken, form({ egal: "1" }));
    expect(res.statusCode).toBe(400);
  });

  it("answers 413 to a 20 MB upload, storing nothing", async () => {
    const before = await imageCount();
    const big = Buffer.alloc(20 * 1024 * 1024, 0x41);
    (await png()).copy(big);
    const res = await rest("POST", "/api/images", adminToken, imageForm(big, "riesig.png", "image/png"));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ detail: MSG.payloadTooLargeDetail });
    expect(await imageCount()).toBe(before);
  });

  it("refuses an event whose picture is no image, creating neither event nor image", async () => {
    const beforeImages = await imageCount();
    const data = congressForm();
    const res = await postCongress(data, {
      field: "newPicture",
      fileName: "plakat.png",
      contentType: "image/png",
      data: Buffer.from("GIF89a kein Bild"),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(MSG_ADMIN.imageInvalid);
    expect(
      await db()
        .select()
        .from(congresses)
        .where(eq(congresses.title, String(data.title))),
    ).toHaveLength(0);
    expect(await imageCount()).toBe(beforeImages);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("packages", () => {
  it("requires name, congress, a checkout id above 0 and a description", async () => {
    const c = await createCongress(db());
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, MSG_ADMIN.nameRequired],
      [{ name: "  " }, MSG_ADMIN.nameRequired],
      [{ congress: null }, MSG_ADMIN.congressRequired],
      [{ congress: "" }, MSG_ADMIN.congressRequired],
      [{ congress: 0 }, MSG_ADMIN.congressRequired],
      [{ externalId: 0 }, MSG_ADMIN.externalIdRequired],
      [{ externalId: -3 }, MSG_ADMIN.externalIdRequired],
      [{ externalId: "" }, MSG_ADMIN.externalIdRequired],
      [{ externalId: "abc" }, MSG_ADMIN.externalIdRequired],
      [{ description: "" }, MSG_ADMIN.descriptionRequired],
    ];
    const before = (await db().select({ n: count() }).from(congressPackages))[0]?.n;
    for (const [values, message] of cases) {
      const res = await postPackage(packageForm(c.id, values));
      expect(res.statusCode, JSON.stringify(values)).toBe(400);
      expect(res.json().detail, JSON.stringify(values)).toBe(message);
    }
    const missingCongress = { ...packageForm(c.id) };
    delete missingCongress.congress;
    const res = await postPackage(missingCongress);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(MSG_ADMIN.congressRequired);

    const unknownCongress = await postPackage(packageForm(2_000_000_000));
    expect(unknownCongress.statusCode).toBe(400);
    expect(unknownCongress.json().detail).toBe(MSG_ADMIN.congressRequired);
    expect((await db().select({ n: count() }).from(congressPackages))[0]?.n).toBe(before);
  });

  it("creates and edits a package with picture and extra parameters", async () => {
    const c = await createCongress(db());
    const c2 = await createCongress(db());
    const data = packageForm(c.id, {
      availabilityDate: "2026-06-01",
      extraParameters: {
        voucher: "PAKET10",
        crosssellDescription: "Mehr davon",
        crosssellLink: "https://x.example",
      },
    });
    const res = await postPackage(data, {
      field: "newPicture",
      fileName: "paket.jpg",
      contentType: "image/jpeg",
      data: await sharp(await png())
        .jpeg()
        .toBuffer(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created.picture).toMatch(/\.webp$/);
    expect(await packageRow(created.id)).toMatchObject({
      name: data.name,
      congressId: c.id,
      externalId: 4711,
      availabilityDate: "2026-06-01",
      picture: created.picture,
      extraParameters: {
        voucher: "PAKET10",
        crosssellDescription: "Mehr davon",
        crosssellLink: "https://x.example",
      },
    });

    const edited = await postPackage({
      ...packageForm(c2.id, { name: "Umbenannt", externalId: "815", extraParameters: { voucher: "NEU" } }),
      id: created.id,
      picture: created.picture,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().id).toBe(created.id);
    expect(await packageRow(created.id)).toMatchObject({
      name: "Umbenannt",
      congressId: c2.id,
      externalId: 815,
      availabilityDate: null,
      picture: created.picture,
      extraParameters: { voucher: "NEU" },
    });
  });

  it("saves a cross-sell link that is a path of this app or a web address, refuses every other", async () => {
    const c = await createCongress(db());
    const withLink = (crosssellLink: string) =>
      packageForm(c.id, { extraParameters: { crosssellDescription: "Passend dazu", crosssellLink } });
    // the seed's link, shown on the visitor's page: a package that has it can be saved again
    for (const link of ["/congress-package-purchase/5", "https://shop.example/buch"]) {
      const res = await postPackage(withLink(link));
      expect(res.statusCode, `${link}: ${res.body}`).toBe(200);
      expect((await packageRow(res.json().id))?.extraParameters.crosssellLink).toBe(link);
      const again = await postPackage({ ...withLink(link), id: res.json().id });
      expect(again.statusCode, `${link}: ${again.body}`).toBe(200);
    }
    const before = (await db().select({ n: count() }).from(congressPackages))[0]?.n;
    for (const link of ["javascript:alert(1)", "data:text/html,x", "kongresspaket", "//evil.example"]) {
      const res = await postPackage(withLink(link));
      expect(res.statusCode, link).toBe(400);
      expect(res.json().detail, link).toBe(MSG_ADMIN.crosssellLinkInvalid);
      const trpc = await trpcAdminMutation("admin.packages.save", withLink(link));
      expect(trpc.status, link).toBe(400);
    }
    expect((await db().select({ n: count() }).from(congressPackages))[0]?.n).toBe(before);
  });

  it("refuses to delete a package with orders (409)", async () => {
    const c = await createCongress(db());
    const ordered = await createPackage(db(), c.id);
    await packageOrder(db(), visitor.id, ordered.id, "canceled");

    const refusedRes = await rest("DELETE", `/api/congress-package/${ordered.id}`, adminToken);
    expect(refusedRes.statusCode).toBe(409);
    expect(refusedRes.json()).toEqual({
      title: MSG.adminDeleteFailedTitle,
      detail: MSG_ADMIN.packageHasOrders,
    });
    expect(await packageRow(ordered.id)).toBeDefined();
  });

  it("deletes a package without orders", async () => {
    const c = await createCongress(db());
    const free = await createPackage(db(), c.id);
    const ok = await rest("DELETE", `/api/congress-package/${free.id}`, adminToken);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: free.id });
    expect(await packageRow(free.id)).toBeUndefined();
    expect((await rest("DELETE", `/api/congress-package/${free.id}`, adminToken)).statusCode).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("users", () => {
  interface UserItem {
    id: number;
    firstname: string;
    lastname: string;
    email: string;
    admin: boolean;
    active: boolean;
    migrationPending: boolean;
    participations: string[];
  }
  interface UserPage {
    items: UserItem[];
    total: number;
    page: number;
    pageSize: number;
  }

  const list = async (query: Record<string, string>): Promise<UserPage> => {
    const res = await rest("GET", `/api/user/?${new URLSearchParams(query).toString()}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    // the spec's "list of users": the page's rows, the filter's count in a header (ADR 0087)
    return {
      items: res.json(),
      total: Number(res.headers["x-total-count"]),
      page: Number(query.page ?? 1),
      pageSize: 10,
    };
  };
  const ids = (p: UserPage) => p.items.map((u) => u.id);

  it("filters by first plus last name, contains, case-insensitive", async () => {
    const tag = unique();
    const erika = await createUser(db(), { firstname: "Erika", lastname: `Muster${tag}` });
    const maier = await createUser(db(), { firstname: "Erika", lastname: `Maier${tag}` });
    const reversed = await createUser(db(), { firstname: `Muster${tag}`, lastname: "Erika" });

    const page = await list({ name: "ERIKA mu" });
    expect(ids(page)).toContain(erika.id);
    expect(ids(page)).not.toContain(maier.id);
    expect(ids(page)).not.toContain(reversed.id);
    for (const item of page.items) {
      expect(`${item.firstname} ${item.lastname}`.toLowerCase()).toContain("erika mu");
    }
    const exact = await list({ name: `rika MUSTER${tag.toUpperCase()}` });
    expect(ids(exact)).toEqual([erika.id]);
    expect(exact.total).toBe(1);
  });

  it("filters by e-mail (contains) and by both combined", async () => {
    const tag = unique();
    const a = await createUser(db(), {
      firstname: "Hans",
      lastname: `Filter${tag}`,
      email: `hans.${tag}@firma.example`,
    });
    const b = await createUser(db(), {
      firstname: "Hans",
      lastname: `Filter${tag}`,
      email: `h.${tag}@privat.example`,
    });
    const c = await createUser(db(), {
      firstname: "Grete",
      lastname: `Filter${tag}`,
      email: `grete.${tag}@firma.example`,
    });

    const byMail = await list({ email: `${tag.toUpperCase()}@FIRMA` });
    expect(ids(byMail).sort()).toEqual([a.id, c.id].sort());
    expect(byMail.total).toBe(2);

    const byTag = await list({ email: tag });
    expect(ids(byTag).sort()).toEqual([a.id, b.id, c.id].sort());

    const both = await list({ name: `hans filter${tag}`, email: "firma" });
    expect(ids(both)).toEqual([a.id]);
    expect(both.total).toBe(1);
  });

  it("pages by 10 with the total of the filter", async () => {
    const tag = unique();
    for (let i = 1; i <= 25; i += 1) {
      await createUser(db(), { firstname: `P${String(i).padStart(2, "0")}`, lastname: `Seite${tag}` });
    }
    const pages = [await list({ name: `seite${tag}` }), await list({ name: `seite${tag}`, page: "2" })];
    const third = await list({ name: `seite${tag}`, page: "3" });
    expect(pages.map((p) => p.items.length)).toEqual([10, 10]);
    expect(third.items).toHaveLength(5);
    expect(third).toMatchObject({ total: 25, page: 3, pageSize: 10 });
    expect(third.items.map((u) => u.firstname)).toEqual(["P21", "P22", "P23", "P24", "P25"]);
    const all = new Set([...pages.flatMap(ids), ...ids(third)]);
    expect(all.size).toBe(25);
    const fourth = await list({ name: `seite${tag}`, page: "4" });
    expect(fourth).toMatchObject({ items: [], total: 25 });
  });

  it("refuses a filter longer than its field takes with the field's own message, listing nothing", async () => {
    for (const [field, max] of [
      ["name", 200],
      ["email", 254],
    ] as const) {
      const res = await rest("GET", `/api/user/?${field}=${"x".repeat(max + 1)}`, adminToken);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().detail, field).toBe(`Der Suchbegriff darf höchstens ${max} Zeichen lang sein.`);
      const trpc = await trpcAdminQuery("admin.users.list", { [field]: "x".repeat(max + 1), page: 1 });
      expect(trpc.status, field).toBe(400);
    }
    expect((await list({ name: "x".repeat(200) })).items).toEqual([]);
  });

  it("treats % and _ in the filter literally", async () => {
    const tag = unique();
    const percent = await createUser(db(), {
      firstname: "Ab%cd",
      lastname: `W${tag}`,
      email: `a_b.${tag}@example.com`,
    });
    const plain = await createUser(db(), {
      firstname: "Abxcd",
      lastname: `W${tag}`,
      email: `axb.${tag}@example.com`,
    });
    const underscore = await createUser(db(), {
      firstname: "Ef_gh",
      lastname: `W${tag}`,
      email: `ef.${tag}@example.com`,
    });
    const plain2 = await createUser(db(), {
      firstname: "Efxgh",
      lastname: `W${tag}`,
      email: `efx.${tag}@example.com`,
    });

    expect(ids(await list({ name: `b%cd w${tag}` }))).toEqual([percent.id]);
    expect(ids(await list({ name: `f_gh w${tag}` }))).toEqual([underscore.id]);
    expect(ids(await list({ email: `a_b.${tag}` }))).toEqual([percent.id]);
    const onlyPercent = await list({ name: "%", email: tag });
    expect(ids(onlyPercent)).toEqual([percent.id]);
    const onlyUnderscore = await list({ name: "_", email: tag });
    expect(ids(onlyUnderscore)).toEqual([underscore.id]);
    expect(ids(await list({ name: `w${tag}` })).sort()).toEqual(
      [percent.id, plain.id, underscore.id, plain2.id].sort(),
    );
  });

  it("lists admin, migrationPending and the participations' congress titles", async () => {
    const tag = unique();
    const c1 = await createCongress(db(), { title: `Frühjahr ${tag}` });
    const c2 = await createCongress(db(), { title: `Herbst ${tag}` });
    const migrated = await createUser(db(), {
      lastname: `Liste${tag}`,
      firstname: "Alt",
      migrationHash: "$2y$legacy",
      passwordHash: null,
    });
    const adminUser = await createUser(db(), {
      lastname: `Liste${tag}`,
      firstname: "Chefin",
      roles: ["ROLE_USER", "ROLE_ADMIN"],
    });
    await participate(db(), migrated.id, c1.id);
    await participate(db(), migrated.id, c2.id);

    const page = await list({ name: `liste${tag}` });
    expect(page.items).toHaveLength(2);
    const [first, second] = page.items;
    expect(first).toMatchObject({ id: migrated.id, migrationPending: true, admin: false });
    expect([...(first?.participations ?? [])].sort()).toEqual([c1.title, c2.title].sort());
    expect(second).toMatchObject({
      id: adminUser.id,
      migrationPending: false,
      admin: true,
      participations: [],
    });
  });

  it("saves the edit dialog", async () => {
    const u = await createUser(db(), { active: false });
    const email = `neu.${unique()}@example.com`;
    const res = await postUser({
      id: u.id,
      firstname: "Neu",
      lastname: "Name",
      email,
      active: true,
      admin: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow(u.id)).toMatchObject({
      firstname: "Neu",
      lastname: "Name",
      email,
      active: true,
      admin: true,
      roles: ["ROLE_USER", "ROLE_ADMIN"],
    });
    const back = await postUser({
      id: u.id,
      firstname: "Neu",
      lastname: "Name",
      email,
      active: true,
      admin: false,
    });
    expect(back.statusCode).toBe(200);
    expect(await userRow(u.id)).toMatchObject({ admin: false, roles: ["ROLE_USER"] });
  });

  it('reads the string "false" in userData as false', async () => {
    const u = await createUser(db());
    const res = await postUser({
      id: u.id,
      firstname: "A",
      lastname: "B",
      email: u.email,
      active: "true",
      admin: "false",
    });
    expect(res.statusCode).toBe(200);
    expect(await userRow(u.id)).toMatchObject({ active: true, admin: false });
  });

  it("refuses an e-mail address of another account with 409", async () => {
    const u = await createUser(db());
    const other = await createUser(db());
    for (const email of [other.email, other.email.toUpperCase()]) {
      const res = await postUser({
        id: u.id,
        firstname: "A",
        lastname: "B",
        email,
        active: true,
        admin: false,
      });
      expect(res.statusCode, email).toBe(409);
      expect(res.json().detail).toBe(MSG_ADMIN.emailInUse);
    }
    expect((await userRow(u.id))?.email).toBe(u.email);
  });

  it("an admin cannot remove their own admin role, deactivate or delete themselves", async () => {
    const self = { id: admin.id, firstname: admin.firstname, lastname: admin.lastname, email: admin.email };
    const demote = await postUser({ ...self, active: true, admin: false });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().detail).toBe(MSG_ADMIN.cannotDemoteSelf);

    const deactivate = await postUser({ ...self, active: false, admin: true });
    expect(deactivate.statusCode).toBe(403);
    expect(deactivate.json().detail).toBe(MSG_ADMIN.cannotDeactivateSelf);

    const switchOff = await trpcAdminMutation("admin.users.setActive", { id: admin.id, active: false });
    expect(switchOff.status).toBe(403);
    expect(switchOff.error?.detail).toBe(MSG_ADMIN.cannotDeactivateSelf);

    const remove = await rest("DELETE", `/api/user/${admin.id}`, adminToken);
    expect(remove.statusCode).toBe(403);
    expect(remove.json().detail).toBe(MSG_ADMIN.cannotDeleteSelf);

    expect(await userRow(admin.id)).toMatchObject({ active: true, admin: true });
  });

  it("deleting a user removes their participations, orders and refresh tokens", async () => {
    const u = await createUser(db());
    const keep = await createUser(db());
    const c = await createCongress(db());
    const pkg = await createPackage(db(), c.id);
    for (const who of [u, keep]) {
      await participate(db(), who.id, c.id);
      await ticketOrder(db(), who.id, c.id, "paid");
      await packageOrder(db(), who.id, pkg.id, "paid");
      await refreshToken(who.id);
    }
    const tables = [participations, congressTicketOrders, congressPackageOrders, refreshTokens] as const;
    for (const table of tables) {
      expect(await countWhere(table, u.id)).toBe(1);
    }
    const res = await rest("DELETE", `/api/user/${u.id}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow(u.id)).toBeUndefined();
    for (const table of tables) {
      expect(await countWhere(table, u.id)).toBe(0);
      expect(await countWhere(table, keep.id)).toBe(1);
    }
    expect(await congressRow(c.id)).toBeDefined();
    expect((await rest("DELETE", `/api/user/${u.id}`, adminToken)).statusCode).toBe(404);
  });

  /** refresh tokens that would still give a session */
  const usableRefreshTokens = async (userId: number) =>
    (
      await db()
        .select({ n: count() })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    )[0]?.n ?? 0;

  it("switching a user off revokes their refresh tokens", async () => {
    const u = await createUser(db());
    const keep = await createUser(db());
    await refreshToken(u.id);
    await refreshToken(u.id);
    await refreshToken(keep.id);
    const on = await trpcAdminMutation("admin.users.setActive", { id: u.id, active: true });
    expect(on.status).toBe(200);
    expect(await usableRefreshTokens(u.id)).toBe(2);
    const off = await trpcAdminMutation("admin.users.setActive", { id: u.id, active: false });
    expect(off.status).toBe(200);
    expect(off.data).toEqual({ id: u.id, active: false });
    expect((await userRow(u.id))?.active).toBe(false);
    expect(await usableRefreshTokens(u.id)).toBe(0);
    expect(await usableRefreshTokens(keep.id)).toBe(1);
  });

  it("deactivating through the edit dialog revokes the refresh tokens too", async () => {
    const u = await createUser(db());
    await refreshToken(u.id);
    const res = await postUser({
      id: u.id,
      firstname: "A",
      lastname: "B",
      email: u.email,
      active: false,
      admin: false,
    });
    expect(res.statusCode).toBe(200);
    expect(await usableRefreshTokens(u.id)).toBe(0);
  });

  it("admin.users.get returns the user with participations (congress title and time)", async () => {
    const u = await createUser(db(), { firstname: "Gerda", lastname: "Get" });
    const c = await createCongress(db(), { title: `Get-Kongress ${unique()}` });
    const pid = await participate(db(), u.id, c.id);
    const res = await trpcAdminQuery("admin.users.get", { id: u.id });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toMatchObject({
      id: u.id,
      firstname: "Gerda",
      lastname: "Get",
      email: u.email,
      admin: false,
    });
    expect(res.data.participations).toHaveLength(1);
    expect(res.data.participations[0]).toMatchObject({ id: pid, congressTitle: c.title });
    expect(Number.isNaN(new Date(res.data.participations[0].createdAt).getTime())).toBe(false);
    const missing = await trpcAdminQuery("admin.users.get", { id: 2_000_000_000 });
    expect(missing.status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("contents", () => {
  const contentForm = (congressId: number, days: unknown[], values: Record<string, unknown> = {}) => ({
    congress: { id: congressId },
    type: "vimeo-url",
    data: { days },
    ...values,
  });

  it("saves two days (one with an exclusive date) and answers the list of congresses", async () => {
    const c = await createCongress(db(), { title: `Inhalt ${unique()}` });
    const days = [
      {
        name: "Tag 1",
        exclusive_date: "",
        videos: [{ url: "https://player.vimeo.com/video/1", comment: "Eröffnung" }],
      },
      {
        name: "Weihnachtstag",
        exclusive_date: "24.12.2026",
        videos: [
          { url: "https://player.vimeo.com/video/2", comment: "Festvortrag" },
          { url: "https://player.vimeo.com/video/3", comment: "" },
        ],
      },
    ];
    const res = await postContent(contentForm(c.id, days));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { id: number; title: string; participationCount: number }[];
    expect(Array.isArray(answer)).toBe(true);
    expect(answer.find((x) => x.id === c.id)).toMatchObject({ title: c.title, participationCount: 0 });
    expect(answer.length).toBe((await db().select({ n: count() }).from(congresses))[0]?.n);

    const rows = await db().select().from(congressContents).where(eq(congressContents.congressId, c.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.data).toEqual({ days });

    const edited = await postContent(contentForm(c.id, [days[1]], { id: rows[0]?.id }));
    expect(edited.statusCode).toBe(200);
    const after = await db().select().from(congressContents).where(eq(congressContents.congressId, c.id));
    expect(after.map((r) => r.id)).toEqual([rows[0]?.id]);
    expect(after[0]?.data.days).toHaveLength(1);
  });

  it("refuses a video address that is no absolute http(s) address, as the field says", async () => {
    const c = await createCongress(db());
    for (const url of ["nicht-eine-url", "/video/1", "//player.vimeo.com/video/1", "javascript:alert(1)"]) {
      const res = await postContent(
        contentForm(c.id, [{ name: "Tag", exclusive_date: "", videos: [{ url, comment: "" }] }]),
      );
      expect(res.statusCode, url).toBe(400);
      expect(res.json().detail, url).toBe(MSG_ADMIN.videoUrlInvalid);
    }
    expect(
      await db().select().from(congressContents).where(eq(congressContents.congressId, c.id)),
    ).toHaveLength(0);
  });

  it("refuses an impossible exclusive date", async () => {
    const c = await createCongress(db());
    const res = await postContent(
      contentForm(c.id, [{ name: "Tag", exclusive_date: "31.02.2026", videos: [] }]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(MSG_ADMIN.exclusiveDateInvalid);
    expect(
      await db().select().from(congressContents).where(eq(congressContents.congressId, c.id)),
    ).toHaveLength(0);
  });

  it("keeps a video's length as seconds, typed (mm:ss, hh:mm:ss) or as the list answers it; none stays none", async () => {
    const c = await createCongress(db());
    const videos = [
      { url: "https://player.vimeo.com/video/11", comment: "typed", duration: "1:02:03" },
      { url: "https://player.vimeo.com/video/12", comment: "as listed", duration: 754 },
      { url: "https://player.vimeo.com/video/13", comment: "an older client" },
    ];
    const res = await postContent(contentForm(c.id, [{ name: "Tag", exclusive_date: "", videos }]));
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await db().select().from(congressContents).where(eq(congressContents.congressId, c.id));
    expect(row?.data.days[0]?.videos).toEqual([
      { url: "https://player.vimeo.com/video/11", comment: "typed", duration: 3723 },
      { url: "https://player.vimeo.com/video/12", comment: "as listed", duration: 754 },
      { url: "https://player.vimeo.com/video/13", comment: "an older client" },
    ]);

    const wrong = await postContent(
      contentForm(c.id, [{ name: "Tag", exclusive_date: "", videos: [{ ...videos[0], duration: "90" }] }], {
        id: row?.id,
      }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe(MSG_VIDEO_LENGTH.format);
  });

  it("keeps the organiser's live flag only where it is set, answers it in the list and takes it back unchanged", async () => {
    const c = await createCongress(db(), { title: `Livestream ${unique()}` });
    const videos = [
      { url: "https://player.vimeo.com/video/21", comment: "live", duration: "45:00", live: true },
      { url: "https://player.vimeo.com/video/22", comment: "recording", live: false },
      { url: "https://player.vimeo.com/video/23", comment: "an older client" },
    ];
    const res = await postContent(contentForm(c.id, [{ name: "Tag", exclusive_date: "", videos }]));
    expect(res.statusCode, res.body).toBe(200);
    const stored = [
      { url: "https://player.vimeo.com/video/21", comment: "live", duration: 2700, live: true },
      { url: "https://player.vimeo.com/video/22", comment: "recording" },
      { url: "https://player.vimeo.com/video/23", comment: "an older client" },
    ];
    const [row] = await db().select().from(congressContents).where(eq(congressContents.congressId, c.id));
    expect(row?.data.days[0]?.videos).toEqual(stored);

    // a REST client reads the list and sends the content back as it came
    const listed = await rest(
      "GET",
      `/api/congress-content?search=${encodeURIComponent(c.title)}`,
      adminToken,
    );
    const [content] = listed.json() as { id: number; data: { days: unknown[] } }[];
    expect(content?.data.days).toEqual([{ name: "Tag", exclusive_date: "", videos: stored }]);
    const again = await postContent(contentForm(c.id, content?.data.days ?? [], { id: content?.id }));
    expect(again.statusCode, again.body).toBe(200);
    const [after] = await db()
      .select()
      .from(congressContents)
      .where(eq(congressContents.id, row?.id ?? 0));
    expect(after?.data.days[0]?.videos).toEqual(stored);

    const wrong = await postContent(
      contentForm(c.id, [{ name: "Tag", exclusive_date: "", videos: [{ ...videos[0], live: "ja" }] }], {
        id: row?.id,
      }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe(MSG_VIDEO_LIVE);
  });

  it("searches by congress title, day name and video comment, case-insensitively", async () => {
    const tag = unique();
    const c = await createCongress(db(), { title: `Sommerakademie ${tag}` });
    const other = await createCongress(db(), { title: `Winterschule ${tag}` });
    const found = await createContentRow(c.id, {
      days: [
        {
          name: `Morgenrunde${tag}`,
          exclusive_date: "",
          videos: [{ url: `https://player.vimeo.com/video/77${seq}`, comment: `Xylophon${tag}` }],
        },
      ],
    });
    const unrelated = await createContentRow(other.id, {
      days: [
        {
          name: "Abend",
          exclusive_date: "",
          videos: [{ url: "https://player.vimeo.com/video/5", comment: "Flöte" }],
        },
      ],
    });
    const search = async (term: string) => {
      const res = await rest("GET", `/api/congress-content?search=${encodeURIComponent(term)}`, adminToken);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: number; congress: { id: number; title: string } }[]).map((x) => x.id);
    };
    for (const term of [`SOMMERAKADEMIE ${tag}`, `morgenRUNDE${tag}`, `XYLOPHON${tag.toUpperCase()}`]) {
      expect(await search(term), term).toEqual([found.id]);
    }
    expect(await search(`nichts${tag}`)).toEqual([]);
    expect(await search(`video/77${seq}`)).not.toContain(found.id);
    const all = await search("");
    expect(all).toContain(found.id);
    expect(all).toContain(unrelated.id);
    const listed = await trpcAdminQuery("admin.contents.list", { search: `morgenrunde${tag}` });
    expect(listed.data).toEqual([
      { id: found.id, type: "vimeo-url", data: found.data, congress: { id: c.id, title: c.title } },
    ]);
  });

  it("deletes a content", async () => {
    const c = await createCongress(db());
    const content = await createContentRow(c.id);
    const res = await rest("DELETE", `/api/congress-content/${content.id}`, adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: content.id });
    expect(
      await db().select().from(congressContents).where(eq(congressContents.id, content.id)),
    ).toHaveLength(0);
    expect(await congressRow(c.id)).toBeDefined();
    expect((await rest("DELETE", `/api/congress-content/${content.id}`, adminToken)).statusCode).toBe(404);
  });
});
