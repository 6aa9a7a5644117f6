import { schema } from "@app/db";
import {
  LEARNING_CHECK_RETRY_MINUTES,
  MSG_LEARNING_CHECK,
  questionCorrect,
  scoreLearningCheck,
  type ZLearningCheckSubmitInput,
} from "@app/shared";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { issueRecordingCertificate } from "../certificates/issue";
import { type Ctx, fits, type Question, questionsOf, requireTakeable } from "./participant";

/** Submitting an attempt of a learning-success check (ADR 0120). */

const { learningCheckAttempts } = schema;

type SubmitInput = z.output<typeof ZLearningCheckSubmitInput> & { userId: number };

/**
 * Submits the caller's open attempt once: the attempt is locked, checked (the caller's, not submitted, the
 * answers those of its shown questions), scored (a question counts when exactly its correct answers are
 * chosen; passed at `score ≥ pass mark`) and stored, in one transaction. The answer names for each question
 * whether it was right, what was chosen, and the explanation.
 */
export async function submitLearningCheck(ctx: Ctx, input: SubmitInput) {
  const now = ctx.clock.now();
  const [peek] = await ctx.db
    .select({ checkId: learningCheckAttempts.checkId })
    .from(learningCheckAttempts)
    .where(
      and(eq(learningCheckAttempts.id, input.attemptId), eq(learningCheckAttempts.userId, input.userId)),
    );
  if (!peek) {
    // another's attempt is answered as an unknown one: its id reveals nothing
    throw new AppError("NOT_FOUND", `attempt ${input.attemptId}`, MSG_LEARNING_CHECK.attemptNotFound);
  }
  const check = await requireTakeable(ctx, input.userId, peek.checkId);
  return ctx.db.transaction(async (tx) => {
    const [attempt] = await tx
      .select()
      .from(learningCheckAttempts)
      .where(
        and(eq(learningCheckAttempts.id, input.attemptId), eq(learningCheckAttempts.userId, input.userId)),
      )
      .for("update");
    if (!attempt) {
      throw new AppError("NOT_FOUND", `attempt ${input.attemptId}`, MSG_LEARNING_CHECK.attemptNotFound);
    }
    if (attempt.submittedAt !== null) {
      throw new AppError("CONFLICT", `attempt ${attempt.id} submitted`, MSG_LEARNING_CHECK.attemptSubmitted);
    }
    const questions = await questionsOf(tx, check.id);
    if (!fits(attempt.shown, questions)) {
      throw new AppError("CONFLICT", `attempt ${attempt.id} outdated`, MSG_LEARNING_CHECK.attemptChanged);
    }
    const given = new Map<number, number[]>();
    for (const a of input.answers) {
      if (given.has(a.questionId)) {
        throw new AppError("BAD_REQUEST", "question answered twice", MSG_LEARNING_CHECK.answersInvalid);
      }
      given.set(a.questionId, [...new Set(a.chosen)]);
    }
    const byId = new Map(questions.map((q) => [q.id, q]));
    if (input.answers.some((a) => !attempt.shown.some((s) => s.questionId === a.questionId))) {
      throw new AppError("BAD_REQUEST", "answer to a question not shown", MSG_LEARNING_CHECK.answersInvalid);
    }
    const results = attempt.shown.map((s) => {
      const q = byId.get(s.questionId) as Question;
      const positions = given.get(s.questionId) ?? [];
      if (positions.length === 0) {
        throw new AppError("BAD_REQUEST", `question ${q.id} unanswered`, MSG_LEARNING_CHECK.unanswered);
      }
      if (positions.some((p) => p >= s.answerOrder.length)) {
        throw new AppError("BAD_REQUEST", "answer not shown", MSG_LEARNING_CHECK.answersInvalid);
      }
      const multiple = q.answers.filter((a) => a.correct).length > 1;
      if (!multiple && positions.length > 1) {
        throw new AppError(
          "BAD_REQUEST",
          "several answers to a single-choice question",
          MSG_LEARNING_CHECK.oneAnswer,
        );
      }
      // the stored indexes of the chosen answers, and of the correct ones
      const chosen = positions.map((p) => s.answerOrder[p] as number).sort((a, b) => a - b);
      const correct = q.answers.flatMap((a, i) => (a.correct ? [i] : []));
      return {
        id: q.id,
        question: q.question,
        answers: s.answerOrder.map((i) => q.answers[i]?.text ?? ""),
        chosen: [...positions].sort((a, b) => a - b),
        stored: chosen,
        correct: questionCorrect(correct, chosen),
        explanation: q.explanation,
      };
    });
    const score = scoreLearningCheck(
      results.filter((r) => r.correct).length,
      results.length,
      check.passPercent,
    );
    await tx
      .update(learningCheckAttempts)
      .set({
        submittedAt: now,
        chosen: Object.fromEntries(results.map((r) => [String(r.id), r.stored])),
        scorePercent: score.scorePercent,
        passed: score.passed,
      })
      .where(eq(learningCheckAttempts.id, attempt.id));
    if (score.passed) {
      // the recording's certificate, with the attempt it rests on
      await issueRecordingCertificate(
        { ...ctx, db: tx },
        { userId: input.userId, learningCheckId: check.id },
      );
    }
    return {
      attemptId: attempt.id,
      checkId: check.id,
      passPercent: check.passPercent,
      ...score,
      retryAt: score.passed
        ? null
        : new Date(now.getTime() + LEARNING_CHECK_RETRY_MINUTES * 60_000).toISOString(),
      questions: results.map(({ stored: _, ...r }) => r),
    };
  });
}
