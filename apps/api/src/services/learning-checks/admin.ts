import { type Db, type DbOrTx, schema } from "@app/db";
import { type IsoDate, MSG_LEARNING_CHECK, type ZLearningCheckInput } from "@app/shared";
import { TRPCError } from "@trpc/server";
import { and, asc, desc, eq, isNull, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../lib/app-error";
import { adminPage } from "../../lib/paging";
import { adminActor, changedFields, createdFields, deletedFields, recordAudit } from "../admin/audit";

/**
 * The admin's section "Lernerfolgskontrollen" (ADR 0119): a check per package or per
 * day of its event, its settings and its questions, saved together in one audited transaction.
 */

const { learningChecks, learningCheckQuestions, learningCheckAttempts, congressPackages, congresses } =
  schema;
type CheckInput = z.output<typeof ZLearningCheckInput>;

/** A refusal of one field of the editor, shown under that field (as a schema's would be). */
function fieldError(field: string, message: string): TRPCError {
  // a ZodError as zod's parse makes it (an Error, which `new ZodError` is not), so tRPC keeps it as the cause
  const refused = z
    .unknown()
    .superRefine((_, ctx) => ctx.addIssue({ code: "custom", path: [field], message }))
    .safeParse(null);
  return new TRPCError({ code: "BAD_REQUEST", message: `learning check: ${field}`, cause: refused.error });
}

export async function pageLearningChecks(db: DbOrTx, input: { page: number }) {
  const rows = db
    .select({
      id: learningChecks.id,
      packageId: learningChecks.packageId,
      packageName: congressPackages.name,
      congressId: congresses.id,
      congressTitle: congresses.title,
      fortbildung: congresses.fortbildung,
      day: learningChecks.day,
      passPercent: learningChecks.passPercent,
      vnr: learningChecks.vnr,
      category: learningChecks.category,
      points: learningChecks.points,
      questionCount: sql<number>`(SELECT count(*)::int FROM ${learningCheckQuestions} q WHERE q.check_id = learning_checks.id)`,
      attemptCount: sql<number>`(SELECT count(*)::int FROM ${learningCheckAttempts} a WHERE a.check_id = learning_checks.id AND a.submitted_at IS NOT NULL)`,
      passedCount: sql<number>`(SELECT count(DISTINCT a.user_id)::int FROM ${learningCheckAttempts} a WHERE a.check_id = learning_checks.id AND a.passed)`,
    })
    .from(learningChecks)
    .innerJoin(congressPackages, eq(congressPackages.id, learningChecks.packageId))
    .innerJoin(congresses, eq(congresses.id, congressPackages.congressId))
    .orderBy(desc(learningChecks.createdAt), desc(learningChecks.id))
    .$dynamic();
  return adminPage(db, { table: learningChecks, where: undefined, page: input.page }, rows);
}

/** One check with its questions in their order, answer key included (the editor's). */
export async function getLearningCheck(db: DbOrTx, id: number) {
  const [check] = await db.select().from(learningChecks).where(eq(learningChecks.id, id));
  if (!check) {
    throw new AppError("NOT_FOUND", `learning check ${id}`, MSG_LEARNING_CHECK.notFound);
  }
  const questions = await db
    .select({
      id: learningCheckQuestions.id,
      question: learningCheckQuestions.question,
      answers: learningCheckQuestions.answers,
      explanation: learningCheckQuestions.explanation,
    })
    .from(learningCheckQuestions)
    .where(eq(learningCheckQuestions.checkId, id))
    .orderBy(asc(learningCheckQuestions.position), asc(learningCheckQuestions.id));
  return {
    id: check.id,
    packageId: check.packageId,
    day: check.day as IsoDate | null,
    passPercent: check.passPercent,
    vnr: check.vnr,
    category: check.category,
    points: check.points,
    questions,
  };
}

/** The package's event, and the day within its calendar days. */
async function checkPackageAndDay(db: DbOrTx, input: CheckInput): Promise<void> {
  const [pkg] = await db
    .select({ firstDay: congresses.firstDay, lastDay: congresses.lastDay })
    .from(congressPackages)
    .innerJoin(congresses, eq(congresses.id, congressPackages.congressId))
    .where(eq(congressPackages.id, input.packageId));
  if (!pkg) {
    throw fieldError("packageId", MSG_LEARNING_CHECK.packageMissing);
  }
  if (input.day !== null) {
    const last = (pkg.lastDay ?? pkg.firstDay) as IsoDate;
    if (input.day < pkg.firstDay || input.day > last) {
      throw fieldError("day", MSG_LEARNING_CHECK.dayOutside);
    }
  }
  const duplicate = await db
    .select({ id: learningChecks.id })
    .from(learningChecks)
    .where(
      and(
        eq(learningChecks.packageId, input.packageId),
        input.day === null ? isNull(learningChecks.day) : eq(learningChecks.day, input.day),
      ),
    );
  if (duplicate.some((d) => d.id !== input.id)) {
    throw fieldError("day", MSG_LEARNING_CHECK.duplicate);
  }
}

/** What the audit log keeps of a check. */
const auditView = (c: Awaited<ReturnType<typeof getLearningCheck>> | (CheckInput & { id?: number })) => ({
  packageId: c.packageId,
  day: c.day,
  passPercent: c.passPercent,
  vnr: c.vnr,
  fortbildungCategory: c.category,
  points: c.points,
  questions: c.questions.map((q) => ({
    question: q.question,
    answers: q.answers,
    explanation: q.explanation,
  })),
});

/**
 * Creates or updates a check with its questions in the given order: kept questions (by id) are updated in
 * place, the others inserted, the missing ones deleted, all in one transaction with the audit entry.
 */
export async function saveLearningCheck(db: Db, input: CheckInput, actorId: number): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const before = input.id ? await getLearningCheck(tx, input.id) : null;
    await checkPackageAndDay(tx, input);
    const values = {
      packageId: input.packageId,
      day: input.day,
      passPercent: input.passPercent,
      vnr: input.vnr,
      category: input.category,
      points: input.points,
    };
    const [saved] = input.id
      ? await tx
          .update(learningChecks)
          .set(values)
          .where(eq(learningChecks.id, input.id))
          .returning({ id: learningChecks.id })
      : await tx.insert(learningChecks).values(values).returning({ id: learningChecks.id });
    if (!saved) {
      throw new AppError("NOT_FOUND", `learning check ${input.id}`, MSG_LEARNING_CHECK.notFound);
    }
    const keptIds = input.questions.flatMap((q) =>
      q.id && before?.questions.some((b) => b.id === q.id) ? [q.id] : [],
    );
    await tx
      .delete(learningCheckQuestions)
      .where(
        keptIds.length > 0
          ? and(eq(learningCheckQuestions.checkId, saved.id), notInArray(learningCheckQuestions.id, keptIds))
          : eq(learningCheckQuestions.checkId, saved.id),
      );
    for (const [position, q] of input.questions.entries()) {
      const row = { question: q.question, answers: q.answers, explanation: q.explanation, position };
      if (q.id && keptIds.includes(q.id)) {
        await tx
          .update(learningCheckQuestions)
          .set(row)
          .where(and(eq(learningCheckQuestions.id, q.id), eq(learningCheckQuestions.checkId, saved.id)));
      } else {
        await tx.insert(learningCheckQuestions).values({ ...row, checkId: saved.id });
      }
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: before ? "learning-check.save" : "learning-check.create",
      entity: "learning-check",
      entityId: saved.id,
      changes: before ? changedFields(auditView(before), auditView(input)) : createdFields(auditView(input)),
    });
    return { id: saved.id };
  });
}

/** Deletes a check with its questions and attempts (certificates keep their facts, ADR 0119). */
export async function deleteLearningCheck(db: Db, id: number, actorId: number): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const before = await getLearningCheck(tx, id);
    await tx.delete(learningChecks).where(eq(learningChecks.id, id));
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "learning-check.delete",
      entity: "learning-check",
      entityId: id,
      changes: deletedFields(auditView(before), ["packageId", "day", "passPercent"]),
    });
    return { id };
  });
}
