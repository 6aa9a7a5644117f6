import { schema } from "@app/db";
import { eq } from "drizzle-orm";
import type { SessionUser } from "../credentials/access-token";
import { AppError } from "../lib/app-error";
import type { Context } from "./context";

const { users } = schema;

/** Who may call a procedure or a REST path: everybody, a signed-in account, or an admin. */
export const ROLES = ["public", "user", "admin"] as const;
export type CallerRole = (typeof ROLES)[number];

/** The signed-in account; none: UNAUTHORIZED (401). */
export function signedInUser(ctx: Pick<Context, "user">): SessionUser {
  if (!ctx.user) {
    throw new AppError("UNAUTHORIZED", "no valid access token");
  }
  return ctx.user;
}

/**
 * An admin: ROLE_ADMIN in the token, and, unlike visitors' tokens, checked against the account on every
 * call, so a demoted, deactivated or deleted admin loses access at once, not when the token expires (few
 * calls, cheap). Not signed in or no longer active: 401; not an admin: 403.
 */
export async function confirmedAdmin(ctx: Pick<Context, "user" | "db">): Promise<SessionUser> {
  const user = signedInUser(ctx);
  if (!user.roles.includes("ROLE_ADMIN")) {
    throw new AppError("FORBIDDEN", "ROLE_ADMIN required");
  }
  const [account] = await ctx.db
    .select({ active: users.active, roles: users.roles })
    .from(users)
    .where(eq(users.id, user.id));
  if (!account?.active) {
    throw new AppError("UNAUTHORIZED", `admin ${user.id} missing or inactive`);
  }
  if (!account.roles.includes("ROLE_ADMIN")) {
    throw new AppError("FORBIDDEN", `user ${user.id} no longer ROLE_ADMIN`);
  }
  return user;
}

/** The one role check of the procedures (`userProcedure`, `adminProcedure`) and of the REST paths. */
export async function checkRole(ctx: Pick<Context, "user" | "db">, role: CallerRole): Promise<void> {
  if (role === "user") {
    signedInUser(ctx);
  } else if (role === "admin") {
    await confirmedAdmin(ctx);
  }
}
