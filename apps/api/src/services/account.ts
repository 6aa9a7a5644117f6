import { type DbOrTx, schema } from "@app/db";
import type { Role } from "@app/shared";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../lib/app-error";

export interface Profile {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  roles: Role[];
  newsletter: boolean;
  /** the Einheitliche Fortbildungsnummer, 15 digits, or null (ADR 0112) */
  efn: string | null;
}

/** The signed-in user's own profile; never the password hash or any token. */
export async function getProfile(db: DbOrTx, userId: number): Promise<Profile> {
  return (await sessionAccount(db, userId)).profile;
}

/** The profile of an active account and the session version its new tokens are issued under. */
export async function sessionAccount(
  db: DbOrTx,
  userId: number,
): Promise<{ profile: Profile; sessionVersion: number }> {
  const { users } = schema;
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstname: users.firstname,
      lastname: users.lastname,
      roles: users.roles,
      newsletter: users.newsletter,
      efn: users.efn,
      active: users.active,
      sessionVersion: users.sessionVersion,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.active) {
    // deleted or deactivated since the token was issued
    throw new AppError("UNAUTHORIZED", `user ${userId} missing or inactive`);
  }
  return { profile: toProfile(row), sessionVersion: row.sessionVersion };
}

/** The profile of an account row (the caller has checked that it is active). */
export function toProfile(
  row: Pick<
    typeof schema.users.$inferSelect,
    "id" | "email" | "firstname" | "lastname" | "roles" | "newsletter" | "efn"
  >,
): Profile {
  return {
    id: row.id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    roles: row.roles as Role[],
    newsletter: row.newsletter,
    efn: row.efn,
  };
}

/**
 * Saves the account's own EFN (already checked by `ZEfnInput`: 15 digits with a fitting check digit), or
 * clears it (`null`). Only the signed-in account's row, never anybody else's.
 */
export async function setEfn(
  db: DbOrTx,
  userId: number,
  efn: string | null,
): Promise<{ efn: string | null }> {
  const { users } = schema;
  const [row] = await db
    .update(users)
    .set({ efn })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ efn: users.efn });
  if (!row) {
    throw new AppError("UNAUTHORIZED", `user ${userId} missing or deleted`);
  }
  return row;
}
