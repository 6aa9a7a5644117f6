/**
 * The kept overview answers (overview-cache.ts) on two API instances over one database: an answer is
 * served only while it is what a fresh computation would give. Every write to a table the overview reads,
 * from whichever instance or straight in the database, must drop the answers it concerns.
 */
import { schema } from "@app/db";
import { berlinDate } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { OVERVIEW_LISTENER_NAME } from "./overview-cache";

let a: TestApp;
let b: TestApp;

// both caches on with long times: only the change notifications can make a change visible
const env = { OVERVIEW_CACHE_MS: "600000", CATALOGUE_CACHE_MS: "600000" };

beforeAll(async () => {
  a = await createTestApp({ env });
  b = await createTestApp({ env, sameDatabaseAs: a });
  await Promise.all([a.app.overviewCacheReady, b.app.overviewCacheReady]);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const kept = (t: TestApp, userId: number) => t.app.overviewCache.get(userId, berlinDate()) !== undefined;

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`not within ${ms} ms: ${what}`);
    }
    await new Promise((done) => setTimeout(done, 10));
  }
}

/**
 * Waits until both instances have heard every change committed so far: notifications arrive in commit
 * order, so once a marker sent now has dropped a planted answer, everything before it was applied too.
 */
const MARKER = 2_000_000_000;
async function settled(): Promise<void> {
  const day = berlinDate();
  for (const t of [a, b]) {
    await t.app.overviewCache.fill(MARKER, day, async () => ({
      user: { firstname: "Marker", lastname: "" },
      congresses: [],
      packages: [],
      attended: [],
    }));
  }
  await a.db.db.execute(sql`SELECT pg_notify('overview_changed', ${String(MARKER)})`);
  await until(() => !kept(a, MARKER) && !kept(b, MARKER), "the marker's notification");
}

async function visitor() {
  const user = await createUser(a.db.db);
  return { user, token: await a.tokenFor(user.id) };
}

/** The overview of `token` on instance `t`, asked for until it is kept there. */
async function overviewKept(t: TestApp, userId: number, token: string) {
  const answer = await trpcQuery(t, "congress.getOverview", undefined, { token });
  expect(answer.status, answer.body).toBe(200);
  expect(kept(t, userId)).toBe(true);
  return answer;
}

describe("kept overview answers", () => {
  it("are live on both instances once they listen", () => {
    expect(a.app.overviewCache.live).toBe(true);
    expect(b.app.overviewCache.live).toBe(true);
  });

  it("answer byte for byte as a fresh computation, alone and in a batch", async () => {
    const { user, token } = await visitor();
    const congress = await createCongress(a.db.db);
    await participate(a.db.db, user.id, congress.id);
    await settled();
    const fresh = await overviewKept(a, user.id, token);
    const again = await trpcQuery(a, "congress.getOverview", undefined, { token });
    expect(again.body).toBe(fresh.body);
    expect(again.data.congresses.find((e: { id: number }) => e.id === congress.id)).toMatchObject({
      currentUserParticipating: true,
    });

    const batch = "/trpc/congress.getOverview,account.getProfile?batch=1";
    const headers = { authorization: `Bearer ${token}` };
    const fromKept = await a.app.inject({ url: batch, headers });
    a.app.overviewCache.dropAll();
    const computed = await a.app.inject({ url: batch, headers });
    expect(fromKept.statusCode).toBe(200);
    expect(fromKept.body).toBe(computed.body);
    expect(JSON.parse(fromKept.body)).toHaveLength(2);
  });

  it("never answer one visitor with another's overview", async () => {
    const one = await visitor();
    const two = await visitor();
    await a.db.db.update(schema.users).set({ firstname: "Erika" }).where(eq(schema.users.id, one.user.id));
    await a.db.db.update(schema.users).set({ firstname: "Zora" }).where(eq(schema.users.id, two.user.id));
    await settled();
    for (let round = 0; round < 3; round++) {
      const first = await trpcQuery(a, "congress.getOverview", undefined, { token: one.token });
      const second = await trpcQuery(a, "congress.getOverview", undefined, { token: two.token });
      expect(first.data.user.firstname).toBe("Erika");
      expect(second.data.user.firstname).toBe("Zora");
    }
  });

  it("are never given without a valid token", async () => {
    const { user, token } = await visitor();
    await settled();
    await overviewKept(a, user.id, token);
    const anonymous = await trpcQuery(a, "congress.getOverview");
    expect(anonymous.status).toBe(401);
    const tampered = await trpcQuery(a, "congress.getOverview", undefined, {
      token: `${token.slice(0, -2)}xx`,
    });
    expect(tampered.status).toBe(401);
  });
});

type Db = TestApp["db"]["db"];
interface Change {
  name: string;
  /** what exists before the overview is kept */
  given?: (db: Db, userId: number) => Promise<number>;
  /** the write, straight in the database as another instance or a job would make it */
  change: (db: Db, userId: number, id: number) => Promise<unknown>;
  /** the fresh overview (or its status) shows the change */
  shows: (answer: Awaited<ReturnType<typeof trpcQuery>>, id: number) => void;
}

const congressOf = (answer: Awaited<ReturnType<typeof trpcQuery>>, id: number) =>
  answer.data.congresses.find((e: { id: number }) => e.id === id);
const packageOf = (answer: Awaited<ReturnType<typeof trpcQuery>>, id: number) =>
  answer.data.packages.find((p: { id: number }) => p.id === id);
const ticketed = (db: Db) => createCongress(db, { digistoreIdTicket: 4711 }).then((c) => c.id);
/** an event the visitor takes part in */
const joined = async (db: Db, userId: number) => {
  const id = (await createCongress(db)).id;
  await participate(db, userId, id);
  return id;
};
const aPackage = async (db: Db) => (await createPackage(db, (await createCongress(db)).id)).id;
const { users, participations, congressTicketOrders, congressPackageOrders, congresses } = schema;

const changes: Change[] = [
  {
    name: "a visitor's new name (users, update)",
    change: (db, userId) => db.update(users).set({ firstname: "Renate" }).where(eq(users.id, userId)),
    shows: (answer) => expect(answer.data.user.firstname).toBe("Renate"),
  },
  {
    name: "a deactivated account (users, update)",
    change: (db, userId) => db.update(users).set({ active: false }).where(eq(users.id, userId)),
    shows: (answer) => expect(answer.status).toBe(401),
  },
  {
    name: "a deleted account (users, delete)",
    change: (db, userId) => db.delete(users).where(eq(users.id, userId)),
    shows: (answer) => expect(answer.status).toBe(401),
  },
  {
    name: "a new participation (participations, insert)",
    given: (db) => createCongress(db).then((c) => c.id),
    change: (db, userId, id) => participate(db, userId, id),
    shows: (answer, id) => expect(congressOf(answer, id)).toMatchObject({ currentUserParticipating: true }),
  },
  {
    name: "a cancelled participation (participations, delete)",
    given: joined,
    change: (db, userId) => db.delete(participations).where(eq(participations.userId, userId)),
    shows: (answer, id) => expect(congressOf(answer, id)).toMatchObject({ currentUserParticipating: false }),
  },
  {
    name: "a paid ticket (congress_ticket_orders, insert)",
    given: ticketed,
    change: (db, userId, id) => ticketOrder(db, userId, id, "paid"),
    shows: (answer, id) => expect(congressOf(answer, id)).toMatchObject({ ticketBought: true }),
  },
  {
    name: "a cancelled ticket (congress_ticket_orders, update)",
    given: async (db, userId) => {
      const id = await ticketed(db);
      await ticketOrder(db, userId, id, "paid");
      return id;
    },
    change: (db, userId) =>
      db
        .update(congressTicketOrders)
        .set({ status: "canceled" })
        .where(eq(congressTicketOrders.userId, userId)),
    shows: (answer, id) => expect(congressOf(answer, id)).toMatchObject({ ticketBought: false }),
  },
  {
    name: "a paid package (congress_package_orders, insert)",
    given: aPackage,
    change: (db, userId, id) => packageOrder(db, userId, id, "paid"),
    shows: (answer, id) => expect(packageOf(answer, id)).toMatchObject({ bought: true, qualified: true }),
  },
  {
    name: "a refunded package (congress_package_orders, update)",
    given: async (db, userId) => {
      const id = await aPackage(db);
      await packageOrder(db, userId, id, "paid");
      return id;
    },
    change: (db, userId) =>
      db
        .update(congressPackageOrders)
        .set({ status: "canceled" })
        .where(eq(congressPackageOrders.userId, userId)),
    shows: (answer, id) =>
      expect(packageOf(answer, id)).toMatchObject({ orderStatus: "canceled", qualified: false }),
  },
  {
    name: "a package unlocked with its password (package_unlocks, insert)",
    given: aPackage,
    change: (db, userId, id) => db.insert(schema.packageUnlocks).values({ userId, congressPackageId: id }),
    shows: (answer, id) => expect(packageOf(answer, id)).toMatchObject({ qualified: true }),
  },
  {
    name: "recorded attendance (attendances, insert)",
    given: joined,
    change: (db, userId, id) =>
      db.insert(schema.attendances).values({ userId, congressId: id, day: berlinDate(), source: "video" }),
    shows: (answer, id) => expect(answer.data.attended).toContain(id),
  },
  {
    name: "an event renamed (congresses, update: everybody)",
    given: (db) => createCongress(db).then((c) => c.id),
    change: (db, _userId, id) =>
      db.update(congresses).set({ title: "Umbenannt" }).where(eq(congresses.id, id)),
    shows: (answer, id) => expect(congressOf(answer, id)).toMatchObject({ title: "Umbenannt" }),
  },
  {
    name: "a new package (congress_packages, insert: everybody)",
    given: (db) => createCongress(db).then((c) => c.id),
    change: (db, _userId, id) => createPackage(db, id, { name: "Ganz neues Paket" }),
    shows: (answer) =>
      expect(answer.data.packages.map((p: { name: string }) => p.name)).toContain("Ganz neues Paket"),
  },
  {
    name: "all unlocks removed (package_unlocks, truncate: everybody)",
    given: async (db, userId) => {
      const id = await aPackage(db);
      await db.insert(schema.packageUnlocks).values({ userId, congressPackageId: id });
      return id;
    },
    change: (db) => db.execute(sql`TRUNCATE package_unlocks`),
    shows: (answer, id) => expect(packageOf(answer, id)).toMatchObject({ qualified: false }),
  },
];

describe("a write anywhere drops the kept answers it concerns, on every instance", () => {
  it.each(changes)("$name", async ({ given, change, shows }) => {
    const db = a.db.db;
    const { user, token } = await visitor();
    const bystander = await visitor();
    const id = (await given?.(db, user.id)) ?? 0;
    await settled();
    await overviewKept(a, user.id, token);
    await overviewKept(b, user.id, token);
    await overviewKept(b, bystander.user.id, bystander.token);

    await change(db, user.id, id);
    await settled();
    expect(kept(a, user.id)).toBe(false);
    expect(kept(b, user.id)).toBe(false);
    shows(await trpcQuery(a, "congress.getOverview", undefined, { token }), id);
    shows(await trpcQuery(b, "congress.getOverview", undefined, { token }), id);
  });

  it("keeps the answers of visitors a change does not concern", async () => {
    const { user, token } = await visitor();
    const bystander = await visitor();
    await settled();
    await overviewKept(b, bystander.user.id, bystander.token);
    await overviewKept(b, user.id, token);
    await b.db.db.update(users).set({ lastname: "Anders" }).where(eq(users.id, user.id));
    await settled();
    expect(kept(b, user.id)).toBe(false);
    expect(kept(b, bystander.user.id)).toBe(true);
  });

  it("drops everybody's answers when one statement changes more than 200 visitors", async () => {
    const { user, token } = await visitor();
    await settled();
    await overviewKept(b, user.id, token);
    await a.db.db.execute(sql`
      INSERT INTO users (email, firstname, lastname, active)
      SELECT 'masse.' || g || '.' || ${Date.now()} || '@example.com', 'Masse', 'Nr. ' || g, true
        FROM generate_series(1, 201) AS g`);
    await until(() => b.app.overviewCache.size === 0, "the bulk insert's notification");
  });

  it("a visitor's own write through the API shows in their next overview on the other instance", async () => {
    const { user, token } = await visitor();
    // running: the tests here make many running events, which come before coming ones (ADR 0084)
    const congress = await createCongress(a.db.db, { firstDay: relDay(0), lastDay: relDay(2) });
    await settled();
    await overviewKept(b, user.id, token);
    const created = await trpcMutation(a, "participation.create", { congressId: congress.id }, { token });
    expect(created.status, created.body).toBe(200);
    await settled();
    expect(kept(b, user.id)).toBe(false);
    const answer = await trpcQuery(b, "congress.getOverview", undefined, { token });
    expect(congressOf(answer, congress.id)).toMatchObject({ currentUserParticipating: true });
  });
});

describe("the change listener", () => {
  it("when its connection breaks, nothing is kept until it listens again", async () => {
    const { user, token } = await visitor();
    await settled();
    await overviewKept(a, user.id, token);
    await overviewKept(b, user.id, token);
    const terminated = await a.db.db.execute<{ ok: boolean }>(sql`
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
       WHERE application_name = ${OVERVIEW_LISTENER_NAME} AND datname = current_database()`);
    expect(terminated.rows).toHaveLength(2);
    await until(() => !a.app.overviewCache.live && !b.app.overviewCache.live, "both listeners' loss");
    expect(a.app.overviewCache.size).toBe(0);
    expect(b.app.overviewCache.size).toBe(0);

    // meanwhile answers are computed, never kept
    const meanwhile = await trpcQuery(a, "congress.getOverview", undefined, { token });
    expect(meanwhile.status).toBe(200);
    if (!a.app.overviewCache.live) {
      expect(kept(a, user.id)).toBe(false);
    }

    await until(() => a.app.overviewCache.live && b.app.overviewCache.live, "both listeners back");
    await a.db.db.update(users).set({ firstname: "Wieder" }).where(eq(users.id, user.id));
    await settled();
    const answer = await overviewKept(b, user.id, token);
    expect(answer.data.user.firstname).toBe("Wieder");
  });
});
