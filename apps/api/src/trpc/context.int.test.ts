import { schema } from "@app/db";
import { berlinDate } from "@app/shared";
import { eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKey } from "../credentials/access-token";
import { SessionStates } from "../credentials/session-states";
import { OverviewCache } from "../services/visitor/overview-cache";
import { createUser } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { type Context, createContextFactory } from "./context";

/**
 * A visitor's first overview answers its session check with the overview's own statement (context.ts,
 * `ContextOptions.overview`). The check must refuse exactly what the separate read refuses, and an answer
 * built from the state read ahead must not be kept when the visitor changed in between.
 */
let t: TestApp;
let overviewCache: OverviewCache;
let sessionStates: SessionStates;
let createContext: ReturnType<typeof createContextFactory>;

beforeAll(async () => {
  t = await createTestApp();
  overviewCache = new OverviewCache({ ttlMs: 60_000, maxEntries: 100 });
  sessionStates = new SessionStates(t.db.db, { ttlMs: 60_000, maxEntries: 100 });
  // live without a listener: the tests announce the changes themselves, as the listener would
  overviewCache.setLive(true);
  sessionStates.setLive(true);
  createContext = createContextFactory({
    db: t.db.db,
    env: t.env,
    mail: { dispatch: async () => {}, defer: async () => {} },
    jwtKey: secretKey(t.env.JWT_SECRET),
    overviewCache,
    sessionStates,
  });
});

afterAll(async () => {
  await t.close();
});

/** what the context reads of a request (Fastify's own objects are not needed for it) */
function request(token: string): [FastifyRequest, FastifyReply] {
  const req = { headers: { authorization: `Bearer ${token}` }, cookies: {}, log: t.app.log, ip: "127.0.0.1" };
  return [req as unknown as FastifyRequest, {} as FastifyReply];
}

async function overviewContext(token: string): Promise<Context> {
  return createContext(...request(token), { overview: true });
}

const { users } = schema;

describe("the session check of a first overview", () => {
  it("reads the viewer state once, keeps the session state and hands the state to the overview", async () => {
    const user = await createUser(t.db.db);
    const ctx = await overviewContext(await t.tokenFor(user.id));
    expect(ctx.user?.id).toBe(user.id);
    expect(ctx.overviewReadAhead?.state).toMatchObject({ id: user.id, active: true, sessionVersion: 0 });
    if (ctx.overviewReadAhead) {
      overviewCache.close(ctx.overviewReadAhead.fill);
    }
    // the next call finds the session state kept and reads nothing ahead
    const again = await overviewContext(await t.tokenFor(user.id));
    expect(again.user?.id).toBe(user.id);
    expect(again.overviewReadAhead).toBeUndefined();
  });

  it("reads nothing ahead for other calls", async () => {
    const user = await createUser(t.db.db);
    const ctx = await createContext(...request(await t.tokenFor(user.id)));
    expect(ctx.user?.id).toBe(user.id);
    expect(ctx.overviewReadAhead).toBeUndefined();
  });

  it("refuses an ended session, a deactivated and a deleted account as the separate read does", async () => {
    const ended = await createUser(t.db.db);
    const oldToken = await t.tokenFor(ended.id);
    await t.db.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, ended.id));
    const inactive = await createUser(t.db.db);
    const inactiveToken = await t.tokenFor(inactive.id);
    await t.db.db.update(users).set({ active: false }).where(eq(users.id, inactive.id));
    const deleted = await createUser(t.db.db);
    const deletedToken = await t.tokenFor(deleted.id);
    await t.db.db.delete(users).where(eq(users.id, deleted.id));

    for (const token of [oldToken, inactiveToken, deletedToken]) {
      const ctx = await overviewContext(token);
      expect(ctx.user).toBeNull();
      expect(ctx.overviewReadAhead).toBeUndefined();
      // the plain read agrees
      expect((await createContext(...request(token))).user).toBeNull();
    }
    // the new session of the account whose old one ended is let in
    expect((await overviewContext(await t.tokenFor(ended.id))).user?.id).toBe(ended.id);
  });

  it("keeps no answer built from a state read before a change of the visitor was heard", async () => {
    const day = berlinDate();
    const changed = await createUser(t.db.db);
    const ctx = await overviewContext(await t.tokenFor(changed.id));
    const ahead = ctx.overviewReadAhead;
    expect(ahead).toBeDefined();
    // the database announces a write of this visitor after the read ahead and before the answer is built
    overviewCache.applyNotification(String(changed.id));
    await overviewCache.fill(changed.id, day, async () => "built from the old state", ahead?.fill);
    expect(overviewCache.get(changed.id, day)).toBeUndefined();

    const unchanged = await createUser(t.db.db);
    const quiet = await overviewContext(await t.tokenFor(unchanged.id));
    await overviewCache.fill(unchanged.id, day, async () => "current", quiet.overviewReadAhead?.fill);
    expect(overviewCache.get(unchanged.id, day)).toBe("current");
  });
});
