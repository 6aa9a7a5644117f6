import { schema } from "@app/db";
import { eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKey } from "../credentials/access-token";
import { SessionStates } from "../credentials/session-states";
import { OverviewCache } from "../services/visitor/overview-cache";
import { createUser } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { createContextFactory } from "./context";

/** The session check of every call: a token counts only while its session stands (`SessionStates`). */
let t: TestApp;
let createContext: ReturnType<typeof createContextFactory>;

beforeAll(async () => {
  t = await createTestApp();
  const sessionStates = new SessionStates(t.db.db, { ttlMs: 60_000, maxEntries: 100 });
  // live without a listener: the tests announce the changes themselves, as the listener would
  sessionStates.setLive(true);
  createContext = createContextFactory({
    db: t.db.db,
    env: t.env,
    mail: { dispatch: async () => {}, defer: async () => {} },
    jwtKey: secretKey(t.env.JWT_SECRET),
    overviewCache: new OverviewCache({ ttlMs: 0, maxEntries: 0 }),
    sessionStates,
  });
});

afterAll(async () => {
  await t.close();
});

/** what the context reads of a request (Fastify's own objects are not needed for it) */
function request(token: string): [FastifyRequest, FastifyReply] {
  const req = { headers: { authorization: `Bearer ${token}` }, log: t.app.log, ip: "127.0.0.1" };
  return [req as unknown as FastifyRequest, {} as FastifyReply];
}

const { users } = schema;

describe("the session check", () => {
  it("lets a live session in and records its user on the request", async () => {
    const user = await createUser(t.db.db);
    const [req, reply] = request(await t.tokenFor(user.id));
    const ctx = await createContext(req, reply);
    expect(ctx.user?.id).toBe(user.id);
    expect(req.sessionUser?.id).toBe(user.id);
  });

  it("is made once per request, whoever asks for it", async () => {
    const user = await createUser(t.db.db);
    const token = await t.tokenFor(user.id);
    const [req, reply] = request(token);
    const first = await createContext(req, reply);
    expect(await createContext(req, reply)).toBe(first);
    expect(await createContext(...request(token))).not.toBe(first);
  });

  it("refuses an ended session, a deactivated and a deleted account", async () => {
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
      const [req, reply] = request(token);
      expect((await createContext(req, reply)).user).toBeNull();
      expect(req.sessionUser).toBeNull();
    }
    // the new session of the account whose old one ended is let in
    expect((await createContext(...request(await t.tokenFor(ended.id)))).user?.id).toBe(ended.id);
  });
});
