import type { Db } from "@app/db";
import { describe, expect, it } from "vitest";
import { loadEnv } from "../env";
import type { Context } from "./context";
import { adminProcedure, createCallerFactory, router, userProcedure } from "./init";

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
    mail: { dispatch: async () => {} },
    cookies: { get: () => undefined, set: () => {}, clear: () => {} },
  };
}

describe("role procedures", () => {
  it("reject anonymous callers with UNAUTHORIZED", async () => {
    await expect(createCaller(ctx(null)).mine()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(createCaller(ctx(null)).admin()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("reject users without ROLE_ADMIN with FORBIDDEN", async () => {
    const caller = createCaller(ctx({ id: 1, roles: ["ROLE_USER"] }));
    expect(await caller.mine()).toBe(1);
    await expect(caller.admin()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  // admins pass only after their account is checked in the database: see the admin and matrix
  // integration tests (services/admin/admin.int.test.ts, security/authorization-matrix.int.test.ts)
});
