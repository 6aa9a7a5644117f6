import { z } from "zod";
import { MSG_FIELD, tooLong, zForm } from "./field-text";
import { optionalWholeNumber, wholeNumber } from "./fortbildung";
import { ZId, zId } from "./ids";
import { ZPage } from "./paging";
import { zVnr } from "./vnr";

/**
 * Learning-success checks for recordings (ADR 0119, ADR 0120, ADR 0121): per package, or per day of
 * its recordings, multiple-choice questions a buyer answers after watching the required share of the
 * recording. The answer key (which answers are correct, the explanations) never leaves the server before
 * an attempt is submitted.
 */

export const LEARNING_CHECK_MIN_ANSWERS = 3;
export const LEARNING_CHECK_MAX_ANSWERS = 5;
export const LEARNING_CHECK_MAX_QUESTIONS = 50;
export const DEFAULT_PASS_PERCENT = 70;
/** After a failed attempt, a new one may start this many minutes later (ADR 0120). */
export const LEARNING_CHECK_RETRY_MINUTES = 10;

export const MSG_LEARNING_CHECK = {
  package: "Bitte wählen Sie ein Kongresspaket.",
  packageMissing: "Das Kongresspaket wurde nicht gefunden.",
  day: "Bitte wählen Sie einen Tag der Veranstaltung oder „Ganzes Paket“.",
  dayOutside: "Dieser Tag gehört nicht zur Veranstaltung des Kongresspakets.",
  duplicate: "Für dieses Kongresspaket und diesen Tag gibt es bereits eine Lernerfolgskontrolle.",
  passPercent: "Die Bestehensgrenze ist eine ganze Zahl von 1 bis 100 Prozent.",
  points: "Die Punkte sind eine ganze Zahl von 0 bis 100 (leer: wie die Tage der Veranstaltung).",
  questionsMissing: "Bitte legen Sie mindestens eine Frage an.",
  questionsTooMany: `Eine Lernerfolgskontrolle hat höchstens ${LEARNING_CHECK_MAX_QUESTIONS} Fragen.`,
  question: "Bitte geben Sie den Text der Frage ein.",
  answer: "Bitte geben Sie den Text der Antwort ein.",
  answerCount: `Eine Frage hat ${LEARNING_CHECK_MIN_ANSWERS} bis ${LEARNING_CHECK_MAX_ANSWERS} Antworten.`,
  noCorrect: "Bitte markieren Sie mindestens eine richtige Antwort.",
  notFound: "Die Lernerfolgskontrolle wurde nicht gefunden.",
  // the participant's side
  refusedTitle: "Lernerfolgskontrolle nicht möglich",
  notBought:
    "Die Lernerfolgskontrolle steht nur Käuferinnen und Käufern dieses Kongresspakets offen (bezahlte Bestellung).",
  notWatched:
    "Bitte sehen Sie zuerst den erforderlichen Anteil der Aufzeichnung an; danach können Sie die Lernerfolgskontrolle beginnen.",
  notOffered: "Für dieses Kongresspaket wird keine Lernerfolgskontrolle angeboten.",
  alreadyPassed: "Sie haben diese Lernerfolgskontrolle bereits bestanden.",
  wait: "Ein neuer Versuch ist ab {time} Uhr möglich.",
  attemptNotFound: "Dieser Versuch wurde nicht gefunden.",
  attemptSubmitted: "Dieser Versuch wurde bereits abgegeben.",
  attemptChanged:
    "Die Fragen wurden inzwischen geändert. Bitte beginnen Sie die Lernerfolgskontrolle erneut.",
  answersInvalid: "Die Antworten passen nicht zu den gestellten Fragen. Bitte laden Sie die Seite neu.",
  unanswered: "Bitte beantworten Sie alle Fragen.",
  oneAnswer: "Bei dieser Frage ist genau eine Antwort richtig.",
} as const;

const zDayOrWhole = z
  .union(
    [
      z.null({ error: MSG_LEARNING_CHECK.day }),
      z.literal("", { error: MSG_LEARNING_CHECK.day }),
      z.string({ error: MSG_LEARNING_CHECK.day }).regex(/^\d{4}-\d{2}-\d{2}$/, MSG_LEARNING_CHECK.day),
    ],
    { error: MSG_LEARNING_CHECK.day },
  )
  .transform((v) => (v === "" ? null : v));

export const ZLearningCheckAnswer = zForm({
  text: z
    .string({ error: MSG_LEARNING_CHECK.answer })
    .trim()
    .min(1, MSG_LEARNING_CHECK.answer)
    .max(500, tooLong("Eine Antwort", 500)),
  correct: z.boolean({ error: MSG_FIELD.yesNo }),
});

export const ZLearningCheckQuestion = zForm({
  /** a stored question kept (open attempts of unchanged questions stay valid); none: a new one */
  id: ZId.optional(),
  question: z
    .string({ error: MSG_LEARNING_CHECK.question })
    .trim()
    .min(1, MSG_LEARNING_CHECK.question)
    .max(1000, tooLong("Die Frage", 1000)),
  answers: z
    .array(ZLearningCheckAnswer, { error: MSG_LEARNING_CHECK.answerCount })
    .min(LEARNING_CHECK_MIN_ANSWERS, MSG_LEARNING_CHECK.answerCount)
    .max(LEARNING_CHECK_MAX_ANSWERS, MSG_LEARNING_CHECK.answerCount)
    .refine((answers) => answers.some((a) => a.correct), MSG_LEARNING_CHECK.noCorrect),
  explanation: z
    .string({ error: MSG_FIELD.text })
    .trim()
    .max(2000, tooLong("Die Erklärung", 2000))
    .default(""),
});

/** The admin's editor: the check's settings and its questions in their order (one save, ADR 0119). */
export const ZLearningCheckInput = zForm({
  id: ZId.optional(),
  packageId: zId(MSG_LEARNING_CHECK.package),
  /** a day of the package's event (JJJJ-MM-TT); "" or null: the whole package */
  day: zDayOrWhole,
  passPercent: wholeNumber(1, 100, MSG_LEARNING_CHECK.passPercent),
  category: z
    .string({ error: MSG_FIELD.text })
    .trim()
    .max(50, tooLong("Die Kategorie", 50))
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .default(null),
  points: optionalWholeNumber(0, 100, MSG_LEARNING_CHECK.points).default(null),
  /** the recording's own VNR (a measure of its own, not the live event's); empty: none yet */
  vnr: zVnr.nullable().default(null),
  questions: z
    .array(ZLearningCheckQuestion, { error: MSG_LEARNING_CHECK.questionsMissing })
    .min(1, MSG_LEARNING_CHECK.questionsMissing)
    .max(LEARNING_CHECK_MAX_QUESTIONS, MSG_LEARNING_CHECK.questionsTooMany),
});
export type TLearningCheckInput = z.input<typeof ZLearningCheckInput>;

export const ZLearningCheckListInput = zForm({ page: ZPage });

export const ZLearningCheckStartInput = zForm({ checkId: ZId });

/** The participant's answers: per shown question the chosen answers by their place as shown (0, 1, …). */
export const ZLearningCheckSubmitInput = zForm({
  attemptId: ZId,
  answers: z
    .array(
      zForm({
        questionId: ZId,
        chosen: z
          .array(
            z
              .number({ error: MSG_LEARNING_CHECK.answersInvalid })
              .int(MSG_LEARNING_CHECK.answersInvalid)
              .min(0, MSG_LEARNING_CHECK.answersInvalid)
              .max(LEARNING_CHECK_MAX_ANSWERS - 1, MSG_LEARNING_CHECK.answersInvalid),
            { error: MSG_LEARNING_CHECK.answersInvalid },
          )
          .max(LEARNING_CHECK_MAX_ANSWERS, MSG_LEARNING_CHECK.answersInvalid),
      }),
      { error: MSG_LEARNING_CHECK.answersInvalid },
    )
    .max(LEARNING_CHECK_MAX_QUESTIONS, MSG_LEARNING_CHECK.answersInvalid),
});
export type TLearningCheckSubmitInput = z.input<typeof ZLearningCheckSubmitInput>;

// ---------------------------------------------------------------------------------------------------------
// the rule (ADR 0120)

/**
 * A question counts as answered correctly only when exactly its correct answers are chosen: one right
 * answer missing or one wrong answer ticked makes it wrong (no partial credit, which would reward ticking
 * everything).
 */
export function questionCorrect(correct: readonly number[], chosen: readonly number[]): boolean {
  const want = new Set(correct);
  const got = new Set(chosen);
  return want.size === got.size && [...want].every((i) => got.has(i));
}

export interface LearningCheckScore {
  correctCount: number;
  total: number;
  /** whole percent, rounded down */
  scorePercent: number;
  /** the score reaches the pass mark: 7 of 10 at 70% passes, 6 of 10 does not */
  passed: boolean;
}

export function scoreLearningCheck(
  correctCount: number,
  total: number,
  passPercent: number,
): LearningCheckScore {
  const scorePercent = total > 0 ? Math.floor((correctCount * 100) / total) : 0;
  // in integers: 100·c ≥ p·n exactly when ⌊100·c / n⌋ ≥ p, for a whole p
  const passed = total > 0 && correctCount * 100 >= passPercent * total;
  return { correctCount, total, scorePercent, passed };
}
