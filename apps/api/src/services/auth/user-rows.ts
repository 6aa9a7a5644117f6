import { type DbOrTx, schema } from "@app/db";
import { getTableColumns, sql } from "drizzle-orm";

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
