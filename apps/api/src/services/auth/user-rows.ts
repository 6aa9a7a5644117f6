import { type DbOrTx, schema } from "@app/db";
import { getTableColumns, sql } from "drizzle-orm";
import { hashToken, newToken } from "../../lib/tokens";
import type { ServiceDeps } from "../deps";

export type UserRow = typeof schema.users.$inferSelect;

/** E-mail addresses are compared case-insensitively (unique index on lower(email)). */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const { users } = schema;
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return row;
}

const userColumns = Object.entries(getTableColumns(schema.users));

/**
 * A user row that PostgreSQL sent as JSON (`row_to_json`, for statements that read the account together
 * with other things): the columns under their names in the code, each converted as Drizzle converts it.
 */
export function userFromJson(json: Record<string, unknown>): UserRow {
  return Object.fromEntries(
    userColumns.map(([key, column]) => {
      const value = json[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as UserRow;
}

export function fullName(user: Pick<UserRow, "firstname" | "lastname">): string {
  return `${user.firstname} ${user.lastname}`.trim();
}

/** Variables every mail to a user offers (see the mail catalogue). */
export function userMailVariables(user: Pick<UserRow, "firstname" | "lastname" | "newsletter">) {
  return {
    userFullName: fullName(user),
    firstname: user.firstname,
    lastname: user.lastname,
    newsletter: user.newsletter,
  };
}

/** Builds an absolute link into the web app. */
export function appLink(appUrl: string, ...segments: Array<string | number | undefined>): string {
  const path = segments
    .filter((s): s is string | number => s !== undefined && s !== "")
    .map((s) => encodeURIComponent(String(s)))
    .join("/");
  return `${appUrl.replace(/\/$/, "")}/${path}`;
}

/**
 * Where a mailed link leads and when it is made: its expiry counts from `now`, the clock's time read once
 * for the transaction that stores the link (ADR 0099).
 */
export interface LinkOrigin {
  appUrl: string;
  now: Date;
}

export const linkOrigin = (ctx: Pick<ServiceDeps, "env" | "clock">): LinkOrigin => ({
  appUrl: ctx.env.APP_URL,
  now: ctx.clock.now(),
});

/** `now` moved on by `ms`: a token's expiry */
export const later = (now: Date, ms: number): Date => new Date(now.getTime() + ms);

/**
 * The two kinds of mailed one-time link: a table of hashed tokens, how long a link works (a reset link an
 * hour, a sign-in link 15 minutes, ADR 0091) and the web app's path.
 */
const ONE_TIME_LINKS = {
  reset: { table: schema.passwordResetTokens, lifetimeMs: 60 * 60 * 1000, path: "resetPassword" },
  signIn: { table: schema.signInLinks, lifetimeMs: 15 * 60 * 1000, path: "login-link" },
} as const;

/** A new one-time link for `userId`: only the token's hash is stored; the address carries the token. */
export async function newOneTimeLink(
  tx: Pick<DbOrTx, "insert">,
  kind: keyof typeof ONE_TIME_LINKS,
  { appUrl, now }: LinkOrigin,
  userId: number,
): Promise<{ id: number | undefined; url: string }> {
  const { table, lifetimeMs, path } = ONE_TIME_LINKS[kind];
  const token = newToken();
  const [row] = await tx
    .insert(table)
    .values({ userId, tokenHash: hashToken(token), expiresAt: later(now, lifetimeMs) })
    .returning({ id: table.id });
  return { id: row?.id, url: appLink(appUrl, path, token) };
}
