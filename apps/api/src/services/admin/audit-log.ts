import { type Db, schema } from "@app/db";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  type AuditAction,
  type AuditEntity,
  describeAuditChanges,
  type ZAuditListInput,
} from "@app/shared";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { adminPage } from "../../lib/paging";

const { auditLog, users } = schema;

/** Who an entry names: the admin's name, the payment provider, the system, or a deleted account. */
function actorLabel(kind: string, name: string | null, deleted: boolean): string {
  if (kind === "payment-notification") {
    return "Zahlungsanbieter";
  }
  if (kind === "system") {
    return "System";
  }
  return name === null || deleted ? "gelöschtes Konto" : name;
}

/** A Berlin calendar day's first instant, for the date range filter. */
const berlinMidnight = (day: string) => sql`(${day}::date::timestamp AT TIME ZONE 'Europe/Berlin')`;

/** The columns of the audit log table, with the acting admin's name. */
const auditColumns = {
  id: auditLog.id,
  at: auditLog.at,
  actorKind: auditLog.actorKind,
  actorId: auditLog.actorId,
  actorName: sql<string | null>`${users.firstname} || ' ' || ${users.lastname}`,
  actorDeleted: sql<boolean>`${users.deletedAt} IS NOT NULL`,
  action: auditLog.action,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  changes: auditLog.changes,
};

/** One page of the audit log, newest first, filtered on the server. */
export async function listAudit(db: Db, input: z.output<typeof ZAuditListInput>) {
  const where = and(
    input.entity ? eq(auditLog.entity, input.entity) : undefined,
    input.action ? eq(auditLog.action, input.action) : undefined,
    input.actorId ? eq(auditLog.actorId, input.actorId) : undefined,
    input.actorKind ? eq(auditLog.actorKind, input.actorKind) : undefined,
    input.from ? sql`${auditLog.at} >= ${berlinMidnight(input.from)}` : undefined,
    input.to ? sql`${auditLog.at} < ${berlinMidnight(input.to)} + interval '1 day'` : undefined,
  );
  const rows = db
    .select(auditColumns)
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id));
  return adminPage(
    db,
    { table: auditLog, where, page: input.page },
    rows.$dynamic(),
    ({ actorName, actorDeleted, ...row }) => ({
      ...row,
      actor: actorLabel(row.actorKind, actorName, actorDeleted),
      actionLabel: AUDIT_ACTION_LABELS[row.action as AuditAction] ?? row.action,
      entityLabel: AUDIT_ENTITY_LABELS[row.entity as AuditEntity] ?? row.entity,
      lines: describeAuditChanges(row.changes),
    }),
  );
}

/** The admins the actor filter offers (current admins; a few rows, the role is a generated column). */
export async function listAuditActors(db: Db) {
  const rows = await db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname })
    .from(users)
    .where(eq(users.admin, true))
    .orderBy(asc(users.lastname), asc(users.firstname))
    .limit(500);
  return rows.map((r) => ({ id: r.id, name: `${r.firstname} ${r.lastname}` }));
}
