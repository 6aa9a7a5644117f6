import { type Db, schema } from "@app/db";
import { MSG_ADMIN, type Role, type ZUserListInput, type ZUserUpdateInput } from "@app/shared";
import { and, asc, desc, eq, ilike, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { uniqueViolation } from "../../lib/db-errors";
import { containsPattern } from "../../lib/like";
import { adminPage } from "../../lib/paging";
import { attendanceOfUser } from "../attendance/record";
import { endAllSessions } from "../auth/session";
import type { ServiceDeps } from "../deps";
import { adminActor, changedFields, recordAudit } from "./audit";

const { users, participations, congresses } = schema;
const NOT_FOUND = "Die Person wurde nicht gefunden.";

/** The columns every view of a user starts from (the table, the edit dialog, the export). */
export const userColumns = {
  id: users.id,
  firstname: users.firstname,
  lastname: users.lastname,
  email: users.email,
  admin: users.admin,
  active: users.active,
};

/** The users table's filter: first plus last name and e-mail, each "contains", any case (the export uses it too). */
export function userFilter(input: { name: string; email: string }): SQL | undefined {
  const filters: SQL[] = [];
  if (input.name) {
    filters.push(
      ilike(sql`lower(${users.firstname} || ' ' || ${users.lastname})`, containsPattern(input.name)),
    );
  }
  if (input.email) {
    filters.push(ilike(sql`lower(${users.email})`, containsPattern(input.email)));
  }
  return filters.length > 0 ? and(...filters) : undefined;
}

/**
 * One page of the users table, filtered on the server by name (first plus last name) and e-mail, both
 * case-insensitive "contains" (trigram indexes keep it fast with many users).
 */
export async function listUsers(db: Db, input: z.output<typeof ZUserListInput>) {
  const where = userFilter(input);
  return adminPage(
    db,
    { table: users, where, page: input.page },
    db
      .select({
        ...userColumns,
        newsletter: users.newsletter,
        migrationPending: sql<boolean>`${users.migrationHash} IS NOT NULL`,
        /** the order form's person search hints at an account whose address is not confirmed yet */
        emailConfirmed: sql<boolean>`${users.emailConfirmedAt} IS NOT NULL`,
        participations: sql<
          string[]
        >`coalesce((SELECT array_agg(c.title ORDER BY p.created_at) FROM ${participations} p JOIN ${congresses} c ON c.id = p.congress_id WHERE p.user_id = "users"."id"), '{}')`,
      })
      .from(users)
      .where(where)
      .orderBy(asc(users.lastname), asc(users.firstname), asc(users.id))
      .$dynamic(),
  );
}

/** The edit dialog: the user and their participations with congress title and time. */
export async function getUser(db: Db, id: number) {
  const [user] = await db.select(userColumns).from(users).where(eq(users.id, id));
  if (!user) {
    throw new AppError("NOT_FOUND", `user ${id}`, NOT_FOUND);
  }
  const list = await db
    .select({ id: participations.id, congressTitle: congresses.title, createdAt: participations.createdAt })
    .from(participations)
    .innerJoin(congresses, eq(congresses.id, participations.congressId))
    .where(eq(participations.userId, id))
    .orderBy(desc(participations.createdAt));
  return { ...user, participations: list, attendance: await attendanceOfUser(db, id) };
}

/** The fields of the edit dialog as the audit log compares them. */
const auditedUserFields = {
  firstname: users.firstname,
  lastname: users.lastname,
  email: users.email,
  active: users.active,
  admin: users.admin,
};

/** Saves the edit dialog. An admin cannot take their own admin role or deactivate themselves. */
export async function updateUser(
  { db, clock }: Pick<ServiceDeps, "db" | "clock">,
  actorId: number,
  input: z.output<typeof ZUserUpdateInput>,
) {
  if (input.id === actorId && !input.admin) {
    throw new AppError("FORBIDDEN", "self demotion", MSG_ADMIN.cannotDemoteSelf);
  }
  if (input.id === actorId && !input.active) {
    throw new AppError("FORBIDDEN", "self deactivation", MSG_ADMIN.cannotDeactivateSelf);
  }
  const roles: Role[] = input.admin ? ["ROLE_USER", "ROLE_ADMIN"] : ["ROLE_USER"];
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select(auditedUserFields)
        .from(users)
        .where(and(eq(users.id, input.id), isNull(users.deletedAt)))
        .for("update");
      const [saved] = await tx
        .update(users)
        .set({
          firstname: input.firstname,
          lastname: input.lastname,
          email: input.email,
          active: input.active,
          roles,
        })
        // a deleted account (ADR 0037) is only kept for its orders: nobody edits it back to life
        .where(and(eq(users.id, input.id), isNull(users.deletedAt)))
        .returning({ id: users.id, email: users.email, active: users.active, admin: users.admin });
      if (!saved) {
        throw new AppError("NOT_FOUND", `user ${input.id}`, NOT_FOUND);
      }
      if (!input.active) {
        // a deactivated account loses its sessions at once
        await endAllSessions(tx, input.id, clock.now());
      }
      const after = { firstname: input.firstname, lastname: input.lastname, email: input.email };
      await recordAudit(tx, {
        actor: adminActor(actorId),
        action: "user.save",
        entity: "user",
        entityId: input.id,
        changes: changedFields(before ?? {}, { ...after, active: input.active, admin: input.admin }),
      });
      return saved;
    });
  } catch (error) {
    if (uniqueViolation(error)) {
      throw new AppError("CONFLICT", "email in use", MSG_ADMIN.emailInUse);
    }
    throw error;
  }
}

/** The table's active switch, saved at once. */
export async function setUserActive(
  { db, clock }: Pick<ServiceDeps, "db" | "clock">,
  actorId: number,
  id: number,
  active: boolean,
) {
  if (id === actorId && !active) {
    throw new AppError("FORBIDDEN", "self deactivation", MSG_ADMIN.cannotDeactivateSelf);
  }
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ active: users.active })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .for("update");
    const [saved] = await tx
      .update(users)
      .set({ active })
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .returning({ id: users.id, active: users.active });
    if (!saved) {
      throw new AppError("NOT_FOUND", `user ${id}`, NOT_FOUND);
    }
    if (!active) {
      await endAllSessions(tx, id, clock.now());
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "user.active",
      entity: "user",
      entityId: id,
      changes: changedFields(before ?? {}, { active }),
    });
    return saved;
  });
}

/** Deletes a user with participations, orders and sessions (foreign keys cascade). */
export async function deleteUser(db: Db, actorId: number, id: number): Promise<{ id: number }> {
  if (id === actorId) {
    throw new AppError("FORBIDDEN", "self delete", MSG_ADMIN.cannotDeleteSelf);
  }
  await db.transaction(async (tx) => {
    // no personal values: the entry stays after the account is gone
    const [deleted] = await tx
      .delete(users)
      .where(eq(users.id, id))
      .returning({ id: users.id, admin: users.admin });
    if (!deleted) {
      throw new AppError("NOT_FOUND", `user ${id}`, NOT_FOUND);
    }
    const changes = { admin: [deleted.admin, null] };
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "user.delete",
      entity: "user",
      entityId: id,
      changes,
    });
  });
  return { id };
}
