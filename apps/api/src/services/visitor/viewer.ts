import { schema } from "@app/db";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import type { Context } from "../../trpc/context";

export interface Viewer {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  digistoreHash: string;
  /** on the staff whitelist (STAFF_EMAILS): bypasses the event and death-congress date checks */
  isStaff: boolean;
}

export type ViewerCtx = Pick<Context, "db" | "env"> & { user: { id: number } };

/** The signed-in user as the visitor area needs them; a deleted or deactivated account is refused. */
export async function loadViewer(ctx: ViewerCtx): Promise<Viewer> {
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
    .where(eq(users.id, ctx.user.id));
  if (!row?.active) {
    throw new AppError("UNAUTHORIZED", `user ${ctx.user.id} missing or inactive`);
  }
  const { active: _active, ...viewer } = row;
  return { ...viewer, isStaff: ctx.env.STAFF_EMAILS.includes(row.email.toLowerCase()) };
}
