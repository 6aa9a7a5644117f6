import { schema } from "@app/db";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { ServiceDeps } from "../deps";

export interface Viewer {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  digistoreHash: string;
  /** on the staff whitelist (STAFF_EMAILS): bypasses the event and death-congress date checks */
  isStaff: boolean;
}

/** What the visitor services need to know who is asking; the signed-in user's id comes with their input. */
export type ViewerDeps = Pick<ServiceDeps, "db" | "env" | "clock">;

/** The signed-in user as the visitor area needs them; a deleted or deactivated account is refused. */
export async function loadViewer(ctx: ViewerDeps, userId: number): Promise<Viewer> {
  const { users } = schema;
  const [row] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      firstname: users.firstname,
      lastname: users.lastname,
      digistoreHash: users.digistoreHash,
      active: users.active,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.active) {
    throw new AppError("UNAUTHORIZED", `user ${userId} missing or inactive`);
  }
  return toViewer(row, ctx.env);
}

/** The viewer of an account row; staff by the e-mail whitelist. */
export function toViewer(
  row: Omit<Viewer, "isStaff">,
  env: Pick<ServiceDeps["env"], "STAFF_EMAILS">,
): Viewer {
  return {
    id: row.id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    digistoreHash: row.digistoreHash,
    isStaff: env.STAFF_EMAILS.includes(row.email.toLowerCase()),
  };
}
