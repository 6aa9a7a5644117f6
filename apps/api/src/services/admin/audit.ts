import { type DbOrTx, schema } from "@app/db";
import { AUDIT_HIDDEN_VALUE, type AuditAction, type AuditEntity } from "@app/shared";
import { maskEmails } from "../../lib/log-privacy";

/**
 * The one way to write the audit log: called by every admin write and by the payment notification,
 * inside the write's own transaction, so an entry exists exactly when the change does. Entries are only
 * ever inserted (ADR 0045).
 */

export type AuditActor =
  | { kind: "admin"; id: number }
  | { kind: "payment-notification" }
  | { kind: "system" };
export const adminActor = (id: number): AuditActor => ({ kind: "admin", id });

export type AuditChanges = Record<string, unknown>;

/** never recorded, whatever the caller hands in */
const SECRET_FIELD = /password|hash|token|secret|totp|recovery/i;
/** recorded as changed, without the value: the log outlives the person's account (ADR 0037) */
const PERSONAL_FIELD = /^(firstname|lastname)$/;
/** bookkeeping columns that change on every write and say nothing */
const SKIPPED_FIELD = /^(id|createdAt|updatedAt|updatedBy)$/;

function recordable(field: string, value: unknown): unknown {
  if (PERSONAL_FIELD.test(field)) {
    return value === null || value === undefined || value === "" ? value : AUDIT_HIDDEN_VALUE;
  }
  if (field === "email" && typeof value === "string") {
    return maskEmails(value);
  }
  // Dates and other objects are stored as their JSON form, so before and after compare alike
  return value === undefined ? null : JSON.parse(JSON.stringify(value ?? null));
}

const keep = (field: string) => !SECRET_FIELD.test(field) && !SKIPPED_FIELD.test(field);

/** `{field: [before, after]}` for every field of `after` whose value differs from `before`. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    if (!keep(field)) {
      continue;
    }
    const old = JSON.stringify(before[field] ?? null);
    if (old !== JSON.stringify(value ?? null)) {
      changes[field] = [recordable(field, before[field]), recordable(field, value)];
    }
  }
  return changes;
}

/** The values of a creation (no secrets, personal values hidden). */
export function createdFields(values: Record<string, unknown>): AuditChanges {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([field, value]) => keep(field) && value !== undefined)
      .map(([field, value]) => [field, recordable(field, value)]),
  );
}

/** What a deletion removed: the named fields as `[before, null]`. */
export function deletedFields(before: Record<string, unknown>, fields: string[]): AuditChanges {
  return Object.fromEntries(fields.map((field) => [field, [recordable(field, before[field]), null]]));
}

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | number | null;
  changes: AuditChanges;
}

export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(schema.auditLog).values({
    actorId: entry.actor.kind === "admin" ? entry.actor.id : null,
    actorKind: entry.actor.kind,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === null ? null : String(entry.entityId),
    changes: entry.changes,
  });
}
