import type { Db } from "@app/db";
import { berlinDate } from "@app/shared";
import { describe, expect, it } from "vitest";
import { SessionStates } from "../auth/session-states";
import { loadEnv } from "../env";
import { systemClock } from "../services/deps";
import { OverviewCache } from "../services/visitor/overview-cache";
import type { Context } from "./context";
import { adminProcedure, createCallerFactory, router, userProcedure } from "./init";

const probe = router({
  mine: userProcedure.query(({ ctx }) => ctx.user.id),
  write: userProcedure.mutation(({ ctx }) => ctx.user.id),
  failingWrite: userProcedure.mutation((): number => {
    throw new Error("refused");
  }),
  admin: adminProcedure.query(() => "ok"),
});
const createCaller = createCallerFactory(probe);

function ctx(user: Context["user"], overviewCache = new OverviewCache({ ttlMs: 0, maxEntries: 0 })): Context {
  return {
    db: {} as Db,
    env: loadEnv({}),
    log: { error() {}, warn() {}, info() {} } as unknown as Context["log"],
    user,
    ip: "127.0.0.1",
    jwtKey: new Uint8Array(32),
    mail: { dispatch: async () => {}, defer: async () => {} },
    cookies: { get: () => undefined, set: () => {}, clear: () => {} },
    overviewCache,
    sessionStates: new SessionStates({} as Db, { ttlMs: 0, maxEntries: 0 }),
    clock: systemClock,
  };
}

describe("role procedures", () => {
  it("reject anonymous callers with UNAUTHORIZED", async () => {
    await expect(createCaller(ctx(null)).mine()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(createCaller(ctx(null)).admin()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("reject users without ROLE_ADMIN with FORBIDDEN", async () => {
    const caller = createCaller(ctx({ id: 1, roles: ["ROLE_USER"], sessionVersion: 0 }));
    expect(await caller.mine()).toBe(1);
    await expect(caller.admin()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("drop the caller's kept overview after each of their writes, succeeded or not, and not after reads", async () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxEntries: 10 });
    cache.setLive(true);
    const day = berlinDate();
    const keep = (userId: number) => cache.fill(userId, day, async () => `overview ${userId}`);
    await keep(1);
    await keep(2);
    const caller = createCaller(ctx({ id: 1, roles: ["ROLE_USER"], sessionVersion: 0 }, cache));

    await caller.mine();
    expect(cache.get(1, day)).toBe("overview 1");
    await caller.write();
    expect(cache.get(1, day)).toBeUndefined();
    expect(cache.get(2, day)).toBe("overview 2");

    await keep(1);
    await expect(caller.failingWrite()).rejects.toThrow();
    expect(cache.get(1, day)).toBeUndefined();
  });

  // admins pass only after their account is checked in the database: see the admin and matrix
  // integration tests (services/admin/admin.int.test.ts, security/authorization-matrix.int.test.ts)
});
