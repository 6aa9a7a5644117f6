import { schema } from "@app/db";
import { ADMIN_PAGE_SIZE, MSG, MSG_FIELD } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
  createCongress,
  createPackage,
  createUser,
  participate,
  trpcQuery,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

/**
 * ADR 0080: the events, packages, contents and templates tables page on the server. Each page is a
 * slice of the whole list (which REST still answers) in the same order and with the same filter.
 */

let t: TestApp;
const db = () => t.db.db;
let adminToken: string;
let visitorToken: string;
let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

beforeAll(async () => {
  t = await createTestApp();
  ({ adminToken, visitorToken } = await adminAndVisitor(t));
});
afterAll(async () => {
  await t?.close();
});

interface Page {
  items: { id: number }[];
  total: number;
  totalExact: boolean;
  page: number;
  pageSize: number;
}

const asAdmin = async (path: string, input: unknown) => {
  const res = await trpcQuery(t, path, input, { token: adminToken });
  expect(res.status, res.body).toBe(200);
  return res.data;
};
const pageOf = (path: string, input: Record<string, unknown>): Promise<Page> =>
  asAdmin(`admin.${path}.getPage`, input);
const ids = (items: { id: number }[]) => items.map((i) => i.id);

/**
 * Pages 1 and 2 are the whole list's first and second ten rows, with its length as the total; the page after
 * the last is empty with the same total.
 */
async function expectSlicesOf(path: string, filter: Record<string, unknown>, whole: { id: number }[]) {
  expect(whole.length).toBeGreaterThan(ADMIN_PAGE_SIZE);
  const first = await pageOf(path, { ...filter, page: 1 });
  const second = await pageOf(path, { ...filter, page: 2 });
  expect(first).toMatchObject({ total: whole.length, totalExact: true, page: 1, pageSize: ADMIN_PAGE_SIZE });
  expect(first.items).toEqual(whole.slice(0, ADMIN_PAGE_SIZE));
  expect(second).toMatchObject({ total: whole.length, page: 2 });
  expect(second.items).toEqual(whole.slice(ADMIN_PAGE_SIZE, 2 * ADMIN_PAGE_SIZE));
  const beyond = Math.ceil(whole.length / ADMIN_PAGE_SIZE) + 1;
  expect(await pageOf(path, { ...filter, page: beyond })).toMatchObject({
    items: [],
    total: whole.length,
    page: beyond,
  });
}

describe("admin.congresses.getPage", () => {
  it("pages the events newest first with their participation counts, as admin.congresses.list", async () => {
    const made = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i += 1) {
      made.push(await createCongress(db(), { title: `Seite ${unique()}` }));
    }
    const newest = made.at(-1);
    await participate(db(), (await createUser(db())).id, newest?.id ?? 0);
    const whole = await asAdmin("admin.congresses.list", undefined);
    await expectSlicesOf("congresses", {}, whole);
    const first = await pageOf("congresses", { page: 1 });
    expect(ids(first.items).slice(0, 12)).toEqual(ids(made).reverse().slice(0, 10));
    expect(first.items[0]).toMatchObject({ id: newest?.id, title: newest?.title, participationCount: 1 });
  });
});

describe("admin.congresses: package counts", () => {
  it("tells each event's number of packages (the form warns of a ticket-and-package id without one)", async () => {
    const without = await createCongress(db(), {
      title: `Ohne Paket ${unique()}`,
      digistoreIdTicketAndPackage: 1,
    });
    const withTwo = await createCongress(db(), { title: `Zwei Pakete ${unique()}` });
    await createPackage(db(), withTwo.id);
    await createPackage(db(), withTwo.id);
    const first = await pageOf("congresses", { page: 1 });
    const byId = (id: number) => first.items.find((item) => item.id === id);
    expect(byId(without.id)).toMatchObject({ packageCount: 0 });
    expect(byId(withTwo.id)).toMatchObject({ packageCount: 2 });
  });
});

describe("admin.packages.getPage", () => {
  it("pages the packages newest first with their event, as admin.packages.list", async () => {
    const congress = await createCongress(db(), { title: `Paketveranstaltung ${unique()}` });
    const made = [];
    for (let i = 0; i < ADMIN_PAGE_SIZE + 1; i += 1) {
      made.push(await createPackage(db(), congress.id));
    }
    const whole = await asAdmin("admin.packages.list", undefined);
    await expectSlicesOf("packages", {}, whole);
    const first = await pageOf("packages", { page: 1 });
    expect(ids(first.items)).toEqual(ids(made).reverse().slice(0, ADMIN_PAGE_SIZE));
    expect(first.items[0]).toMatchObject({ congress: { id: congress.id, title: congress.title } });
  });
});

describe("admin.contents.getPage", () => {
  const content = async (congressId: number, dayName: string) => {
    const [row] = await db()
      .insert(schema.congressContents)
      .values({ congressId, data: { days: [{ name: dayName, exclusive_date: "", videos: [] }] } })
      .returning({ id: schema.congressContents.id });
    return row?.id ?? 0;
  };

  it("pages the search's matches (title, day name) last changed first, as admin.contents.list", async () => {
    const tag = unique();
    const byTitle = await createCongress(db(), { title: `Herbstschule ${tag}` });
    const other = await createCongress(db());
    const made = [];
    for (let i = 0; i < 8; i += 1) {
      made.push(await content(other.id, `Tag ${i} ${tag}`));
    }
    for (let i = 0; i < 5; i += 1) {
      made.push(await content(byTitle.id, `Tag ${i}`));
    }
    const unrelated = await content(other.id, "Abendrunde");
    const search = tag.toUpperCase();
    const whole = await asAdmin("admin.contents.list", { search });
    expect(ids(whole)).toEqual([...made].reverse());
    await expectSlicesOf("contents", { search }, whole);

    const all = await pageOf("contents", { search: "", page: 1 });
    expect(all.total).toBeGreaterThanOrEqual(made.length + 1);
    expect(ids(all.items)).toContain(unrelated);
    expect(await pageOf("contents", { search: `nichts${tag}`, page: 1 })).toMatchObject({
      items: [],
      total: 0,
    });
  });
});

describe("admin.mailTemplates.getPage", () => {
  it("pages the templates of one event by name, as admin.mailTemplates.list", async () => {
    const congress = await createCongress(db());
    const other = await createCongress(db());
    // more templates than the catalogue has mails: names the table does not check
    const names = Array.from(
      { length: ADMIN_PAGE_SIZE + 3 },
      (_, i) => `vorlage-${String(i).padStart(2, "0")}`,
    );
    await db()
      .insert(schema.mailTemplates)
      .values(
        [...names]
          .reverse()
          .map((name) => ({ congressId: congress.id, name, subject: `Betreff ${name}`, content: "" })),
      );
    await db()
      .insert(schema.mailTemplates)
      .values({ congressId: other.id, name: "event-day", subject: "S", content: "" });
    const whole = await asAdmin("admin.mailTemplates.list", { congressId: congress.id });
    await expectSlicesOf("mailTemplates", { congressId: congress.id }, whole);
    const first = await pageOf("mailTemplates", { congressId: congress.id, page: 1 });
    expect(first.items.map((i) => (i as { name?: string }).name)).toEqual(names.slice(0, ADMIN_PAGE_SIZE));
    expect(first.items[0]).toMatchObject({ congress: { id: congress.id, title: congress.title } });

    const general = await pageOf("mailTemplates", { congressId: null, page: 1 });
    const generalWhole = await asAdmin("admin.mailTemplates.list", { congressId: null });
    expect(general.items).toEqual(generalWhole.slice(0, ADMIN_PAGE_SIZE));
    expect(general.total).toBe(generalWhole.length);
  });
});

describe("the page procedures' input and access", () => {
  const calls = [
    ["congresses", {}],
    ["packages", {}],
    ["contents", { search: "" }],
    ["mailTemplates", { congressId: null }],
  ] as const;

  it.each(calls)(
    "admin.%s.getPage refuses a page that is not a whole number from 1 with 400",
    async (path, filter) => {
      for (const page of [0, -1, 1.5, "zwei", 100_001]) {
        const res = await trpcQuery(t, `admin.${path}.getPage`, { ...filter, page }, { token: adminToken });
        expect(res.status, `${page}: ${res.body}`).toBe(400);
        expect(res.error?.title, res.body).toBe(MSG.validationTitle);
        expect(res.error?.detail, res.body).toBe(MSG_FIELD.page);
      }
    },
  );

  it("refuses a bad filter: an event id that is no positive whole number, a search past 200 characters", async () => {
    for (const congressId of [0, "x", 1.5]) {
      const res = await trpcQuery(
        t,
        "admin.mailTemplates.getPage",
        { congressId, page: 1 },
        { token: adminToken },
      );
      expect(res.status, res.body).toBe(400);
    }
    const long = await trpcQuery(
      t,
      "admin.contents.getPage",
      { search: "x".repeat(201), page: 1 },
      { token: adminToken },
    );
    expect(long.status, long.body).toBe(400);
  });

  it.each(calls)("admin.%s.getPage: anonymous 401, a visitor 403", async (path, filter) => {
    const input = { ...filter, page: 1 };
    const anonymous = await trpcQuery(t, `admin.${path}.getPage`, input);
    expect(anonymous.status, anonymous.body).toBe(401);
    const visitor = await trpcQuery(t, `admin.${path}.getPage`, input, { token: visitorToken });
    expect(visitor.status, visitor.body).toBe(403);
    expect(visitor.error?.detail).toBe(MSG.forbiddenDetail);
  });
});
