import { type Db, schema } from "@app/db";
import {
  ADMIN_PAGE_SIZE,
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  type AuditAction,
  type AuditEntity,
  describeAuditChanges,
  type ZAuditListInput,
} from "@app/shared";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { boundedCount } from "../../lib/paging";

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

/** One page of the audit log, newest first, filtered on the server. */
export async function listAudit(db: Db, input: z.output<typeof ZAuditListInput>) {
  const filters: SQL[] = [];
  if (input.entity) {
    filters.push(eq(auditLog.entity, input.entity));
  }
  if (input.action) {
    filters.push(eq(auditLog.action, input.action));
  }
  if (input.actorId) {
    filters.push(eq(auditLog.actorId, input.actorId));
  }
  if (input.actorKind) {
    filters.push(eq(auditLog.actorKind, input.actorKind));
  }
  if (input.from) {
    filters.push(sql`${auditLog.at} >= ${berlinMidnight(input.from)}`);
  }
  if (input.to) {
    filters.push(sql`${auditLog.at} < ${berlinMidnight(input.to)} + interval '1 day'`);
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const offset = (input.page - 1) * ADMIN_PAGE_SIZE;
  const { total, exact } = await boundedCount(db, auditLog, where, offset);
  const rows = await db
    .select({
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
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset(offset);
  const items = rows.map(({ actorName, actorDeleted, ...row }) => ({
    ...row,
    actor: actorLabel(row.actorKind, actorName, actorDeleted),
    actionLabel: AUDIT_ACTION_LABELS[row.action as AuditAction] ?? row.action,
    entityLabel: AUDIT_ENTITY_LABELS[row.entity as AuditEntity] ?? row.entity,
    lines: describeAuditChanges(row.changes),
  }));
  return { items, total, totalExact: exact, page: input.page, pageSize: ADMIN_PAGE_SIZE };
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
