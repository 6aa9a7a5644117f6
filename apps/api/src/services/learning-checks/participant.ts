import { randomInt } from "node:crypto";
import { type DbOrTx, schema } from "@app/db";
import {
  dayOutcome,
  fillMessage,
  type IsoDate,
  LEARNING_CHECK_RETRY_MINUTES,
  MSG_LEARNING_CHECK,
} from "@app/shared";
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../../lib/app-error";
import { loadFortbildungEvent, recordingFacts } from "../fortbildung/facts";
import { findPackage } from "../visitor/packages";
import { loadViewer, type ViewerDeps } from "../visitor/viewer";

/**
 * The participant's side of a learning-success check (ADR 0119, ADR 0120, ADR 0121): what the package
 * page shows and starting an attempt (questions and answers shuffled, stored in `shown`, sent without the
 * answer key); submitting it is `submit.ts`.
 */

const { learningChecks, learningCheckQuestions, learningCheckAttempts } = schema;
export type Ctx = ViewerDeps;
export type Shown = Array<{ questionId: number; answerOrder: number[] }>;

const BERLIN_TIME = new Intl.DateTimeFormat("de-DE", {
  timeZone: "Europe/Berlin",
  hour: "2-digit",
  minute: "2-digit",
});

function refuse(reason: string, detail: string): AppError {
  return new AppError(
    "FORBIDDEN",
    `learning check refused: ${reason}`,
    detail,
    MSG_LEARNING_CHECK.refusedTitle,
    reason,
  );
}

/** Fisher-Yates with the CSPRNG: the order of an attempt cannot be foreseen from earlier ones. */
function shuffled(n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

interface CheckRow {
  id: number;
  packageId: number;
  day: IsoDate | null;
  passPercent: number;
  category: string | null;
  points: number | null;
}

interface Standing {
  bought: boolean;
  watch: { contentMinutes: number; attendedMinutes: number; requiredMinutes: number; reached: boolean };
  unknownVideos: number;
}

/** Whether the caller bought the package (a paid order) and watched enough of the check's recording. */
async function standingOf(ctx: Ctx, userId: number, check: CheckRow, congressId: number): Promise<Standing> {
  const viewer = await loadViewer(ctx, userId);
  const view = await findPackage(ctx, viewer, check.packageId);
  const event = await loadFortbildungEvent(ctx.db, congressId);
  const facts = await recordingFacts(ctx.db, {
    userId,
    congressId,
    packageId: check.packageId,
    day: check.day,
  });
  // the event's required share of the recording; presence checks are asked on the event page only
  const outcome = dayOutcome({ ...event.rules, presenceChecksRequired: 0 }, { ...facts, checksPassed: 0 });
  return {
    bought: view.orderStatus === "paid",
    watch: {
      contentMinutes: outcome.contentMinutes,
      attendedMinutes: outcome.attendedMinutes,
      requiredMinutes: outcome.requiredMinutes,
      reached: outcome.reached,
    },
    unknownVideos: facts.unknownVideos,
  };
}

/** The package's checks that are offered: its event has Fortbildung, and the check has questions. */
async function offeredChecks(ctx: Ctx, packageId: number, userId: number) {
  const viewer = await loadViewer(ctx, userId);
  const view = await findPackage(ctx, viewer, packageId);
  const event = await loadFortbildungEvent(ctx.db, view.congress.id);
  if (!event.fortbildung) {
    return { congressId: view.congress.id, checks: [] };
  }
  const questionCount = sql<number>`(SELECT count(*)::int FROM ${learningCheckQuestions} q WHERE q.check_id = learning_checks.id)`;
  const rows = await ctx.db
    .select({
      id: learningChecks.id,
      packageId: learningChecks.packageId,
      day: learningChecks.day,
      passPercent: learningChecks.passPercent,
      category: learningChecks.category,
      points: learningChecks.points,
      questionCount,
    })
    .from(learningChecks)
    .where(and(eq(learningChecks.packageId, packageId), sql`${questionCount} > 0`))
    // the days' checks first, the whole package's last
    .orderBy(sql`${learningChecks.day} ASC NULLS LAST`, asc(learningChecks.id));
  return {
    congressId: view.congress.id,
    checks: rows.map((r) => ({ ...r, day: r.day as IsoDate | null })),
  };
}

async function attemptsOf(db: DbOrTx, userId: number, checkId: number) {
  return db
    .select()
    .from(learningCheckAttempts)
    .where(and(eq(learningCheckAttempts.userId, userId), eq(learningCheckAttempts.checkId, checkId)))
    .orderBy(desc(learningCheckAttempts.startedAt), desc(learningCheckAttempts.id));
}
type Attempt = Awaited<ReturnType<typeof attemptsOf>>[number];

/** When a new attempt may start after the latest failed one (ADR 0120); null: now. */
function retryAt(attempts: Attempt[], now: Date): Date | null {
  const last = attempts.find((a) => a.submittedAt !== null);
  if (!last?.submittedAt || last.passed) {
    return null;
  }
  const at = new Date(last.submittedAt.getTime() + LEARNING_CHECK_RETRY_MINUTES * 60_000);
  return at > now ? at : null;
}

/** What the package page shows of each offered check, for the signed-in caller. */
export async function packageLearningChecks(ctx: Ctx, input: { userId: number; packageId: number }) {
  const { congressId, checks } = await offeredChecks(ctx, input.packageId, input.userId);
  const now = ctx.clock.now();
  const out = [];
  for (const check of checks) {
    const standing = await standingOf(ctx, input.userId, check, congressId);
    const attempts = await attemptsOf(ctx.db, input.userId, check.id);
    const submitted = attempts.filter((a) => a.submittedAt !== null);
    const passed = submitted.find((a) => a.passed);
    const last = submitted[0];
    const wait = retryAt(attempts, now);
    out.push({
      id: check.id,
      day: check.day,
      passPercent: check.passPercent,
      category: check.category,
      points: check.points,
      questionCount: check.questionCount,
      bought: standing.bought,
      watch: standing.watch,
      attempts: submitted.length,
      passedAt: passed?.submittedAt?.toISOString() ?? null,
      lastResult: last ? { scorePercent: last.scorePercent ?? 0, passed: last.passed === true } : null,
      openAttempt: attempts.some((a) => a.submittedAt === null),
      retryAt: wait?.toISOString() ?? null,
      canStart: standing.bought && standing.watch.reached && !passed && wait === null,
    });
  }
  return out;
}

/** The check, and why the caller may not take it now (in the order a participant meets the reasons). */
export async function requireTakeable(ctx: Ctx, userId: number, checkId: number) {
  const [check] = await ctx.db.select().from(learningChecks).where(eq(learningChecks.id, checkId));
  if (!check) {
    throw new AppError("NOT_FOUND", `learning check ${checkId}`, MSG_LEARNING_CHECK.notFound);
  }
  const { congressId, checks } = await offeredChecks(ctx, check.packageId, userId);
  const offered = checks.find((c) => c.id === checkId);
  if (!offered) {
    throw refuse("not-offered", MSG_LEARNING_CHECK.notOffered);
  }
  const standing = await standingOf(ctx, userId, offered, congressId);
  if (!standing.bought) {
    throw refuse("not-bought", MSG_LEARNING_CHECK.notBought);
  }
  if (!standing.watch.reached) {
    throw refuse("not-watched", MSG_LEARNING_CHECK.notWatched);
  }
  return offered;
}

export async function questionsOf(db: DbOrTx, checkId: number) {
  return db
    .select()
    .from(learningCheckQuestions)
    .where(eq(learningCheckQuestions.checkId, checkId))
    .orderBy(asc(learningCheckQuestions.position), asc(learningCheckQuestions.id));
}
export type Question = Awaited<ReturnType<typeof questionsOf>>[number];

/** Whether an attempt's `shown` still fits the check's questions (an admin may have edited them since). */
export function fits(shown: Shown, questions: Question[]): boolean {
  const byId = new Map(questions.map((q) => [q.id, q]));
  return (
    shown.length === questions.length &&
    shown.every((s) => byId.get(s.questionId)?.answers.length === s.answerOrder.length)
  );
}

/**
 * The attempt as the participant sees it: the questions and their answers in the attempt's order, whether
 * several answers can be right, and nothing of the answer key (no `correct`, no explanation).
 */
function asShown(
  attempt: { id: number; shown: Shown },
  check: { id: number; passPercent: number },
  questions: Question[],
) {
  const byId = new Map(questions.map((q) => [q.id, q]));
  return {
    attemptId: attempt.id,
    checkId: check.id,
    passPercent: check.passPercent,
    questions: attempt.shown.map((s) => {
      const q = byId.get(s.questionId) as Question;
      return {
        id: q.id,
        question: q.question,
        multiple: q.answers.filter((a) => a.correct).length > 1,
        answers: s.answerOrder.map((i) => q.answers[i]?.text ?? ""),
      };
    }),
  };
}

/**
 * Starts an attempt (or returns the caller's open one, so a reload shows the same order): bought, watched
 * enough, not passed yet, and not within the waiting time after a failed attempt.
 */
export async function startLearningCheck(ctx: Ctx, input: { userId: number; checkId: number }) {
  const check = await requireTakeable(ctx, input.userId, input.checkId);
  const now = ctx.clock.now();
  const attempts = await attemptsOf(ctx.db, input.userId, check.id);
  if (attempts.some((a) => a.passed)) {
    throw refuse("passed", MSG_LEARNING_CHECK.alreadyPassed);
  }
  const questions = await questionsOf(ctx.db, check.id);
  const open = attempts.find((a) => a.submittedAt === null);
  if (open && fits(open.shown, questions)) {
    return asShown(open, check, questions);
  }
  const wait = retryAt(attempts, now);
  if (wait) {
    throw refuse("wait", fillMessage(MSG_LEARNING_CHECK.wait, { time: BERLIN_TIME.format(wait) }));
  }
  const shown: Shown = shuffled(questions.length).map((i) => {
    const q = questions[i] as Question;
    return { questionId: q.id, answerOrder: shuffled(q.answers.length) };
  });
  const attempt = await ctx.db.transaction(async (tx) => {
    if (open) {
      // it no longer fits the questions: it was never submitted, so nothing of it counts
      await tx.delete(learningCheckAttempts).where(eq(learningCheckAttempts.id, open.id));
    }
    const [row] = await tx
      .insert(learningCheckAttempts)
      .values({ checkId: check.id, userId: input.userId, shown, startedAt: now })
      .onConflictDoNothing({
        target: [learningCheckAttempts.userId, learningCheckAttempts.checkId],
        where: isNull(learningCheckAttempts.submittedAt),
      })
      .returning({ id: learningCheckAttempts.id, shown: learningCheckAttempts.shown });
    return row;
  });
  if (attempt) {
    return asShown(attempt, check, questions);
  }
  // a start at the same moment (a double click, a second tab) made the open attempt first: from the top, this
  // start returns that one (or, had it been submitted since, says why no new one starts)
  return startLearningCheck(ctx, input);
}
