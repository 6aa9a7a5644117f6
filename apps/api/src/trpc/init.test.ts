import type { Db } from "@app/db";
import { MSG_ADMIN, ZCongressInput } from "@app/shared";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { SessionStates } from "../credentials/session-states";
import { loadEnv } from "../env";
import { AppError } from "../lib/app-error";
import { systemClock } from "../services/deps";
import { OverviewCache } from "../services/visitor/overview-cache";
import type { Context } from "./context";
import { adminProcedure, createCallerFactory, publicProcedure, router, userProcedure } from "./init";

const probe = router({
  mine: userProcedure.query(({ ctx }) => ctx.user.id),
  admin: adminProcedure.query(() => "ok"),
});
const createCaller = createCallerFactory(probe);

function ctx(user: Context["user"]): Context {
  return {
    db: {} as Db,
    env: loadEnv({}),
    log: { error() {}, warn() {}, info() {} } as unknown as Context["log"],
    user,
    ip: "127.0.0.1",
    jwtKey: new Uint8Array(32),
    mail: { dispatch: async () => {}, defer: async () => {} },
    cookies: { get: () => undefined, set: () => {}, clear: () => {} },
    overviewCache: new OverviewCache({ ttlMs: 0, maxEntries: 0 }),
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
    const caller = createCaller(
      ctx({ id: 1, roles: ["ROLE_USER"], sessionVersion: 0, sessionId: "test-session" }),
    );
    expect(await caller.mine()).toBe(1);
    await expect(caller.admin()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  // admins pass only after their account is checked in the database: see the admin and matrix
  // integration tests (services/admin/admin.int.test.ts, security/authorization-matrix.int.test.ts)
});

describe("the error formatter", () => {
  const forms = router({
    saveCongress: publicProcedure.input(ZCongressInput).mutation(() => "saved"),
    refuse: publicProcedure.mutation((): string => {
      throw new AppError("CONFLICT", "taken", "Schon vergeben.");
    }),
  });
  const call = async (path: string, input: unknown) => {
    const response = await fetchRequestHandler({
      endpoint: "/trpc",
      router: forms,
      createContext: () => ctx(null),
      req: new Request(`http://test/trpc/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: input }),
      }),
    });
    const body = (await response.json()) as { error: { json: { data: Record<string, unknown> } } };
    return { status: response.status, data: body.error.json.data };
  };

  it("answers a refused input with {title, detail} and its messages by field", async () => {
    const { status, data } = await call("saveCongress", {
      title: " ",
      description: "Beschreibung",
      firstCongressDay: { date: "2027-03-10" },
      lastCongressDay: { date: "2027-03-09" },
    });
    expect(status).toBe(400);
    expect(data).toMatchObject({
      title: expect.any(String),
      detail: `${MSG_ADMIN.titleRequired} ${MSG_ADMIN.lastDayBeforeFirst}`,
      fieldErrors: { title: [MSG_ADMIN.titleRequired], lastCongressDay: [MSG_ADMIN.lastDayBeforeFirst] },
    });
    expect(data.stack ?? undefined).toBeUndefined(); // superjson answers undefined as null in `json`
  });

  it("gives other refusals no field errors", async () => {
    const { status, data } = await call("refuse", undefined);
    expect(status).toBe(409);
    expect(data).toMatchObject({ detail: "Schon vergeben." });
    expect(data.fieldErrors ?? undefined).toBeUndefined();
  });
});
