import { describe, expect, it } from "vitest";
import {
  MSG_LEARNING_CHECK,
  questionCorrect,
  scoreLearningCheck,
  ZLearningCheckInput,
} from "./learning-checks";

describe("questionCorrect: exactly the correct set", () => {
  it.each([
    [[1], [1], true],
    [[1], [0], false],
    [[1], [], false],
    [[0, 2], [2, 0], true],
    [[0, 2], [0], false],
    [[0, 2], [0, 1, 2], false],
    [[0, 2], [0, 0, 2], true],
  ])("correct %j, chosen %j: %s", (correct, chosen, expected) => {
    expect(questionCorrect(correct, chosen)).toBe(expected);
  });
});

describe("scoreLearningCheck: the pass mark is reached at the boundary", () => {
  it.each([
    // correct, total, pass mark, score, passed
    [7, 10, 70, 70, true],
    [6, 10, 70, 60, false],
    [2, 3, 67, 66, false],
    [2, 3, 66, 66, true],
    [10, 10, 100, 100, true],
    [9, 10, 100, 90, false],
    [0, 10, 1, 0, false],
    [1, 100, 1, 1, true],
  ])("%i of %i at %i%%: %i%%, passed %s", (c, n, p, score, passed) => {
    expect(scoreLearningCheck(c, n, p)).toEqual({ correctCount: c, total: n, scorePercent: score, passed });
  });
});

describe("ZLearningCheckInput", () => {
  const question = (answers: { text: string; correct: boolean }[], text = "Frage?") => ({
    question: text,
    answers,
    explanation: "",
  });
  const three = [
    { text: "A", correct: true },
    { text: "B", correct: false },
    { text: "C", correct: false },
  ];
  const input = (over: Record<string, unknown> = {}) => ({
    packageId: "3",
    day: "",
    passPercent: "70",
    category: "",
    points: "",
    questions: [question(three)],
    ...over,
  });
  const messages = (value: unknown) => {
    const result = ZLearningCheckInput.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };

  it("reads the form's text fields", () => {
    expect(ZLearningCheckInput.parse(input({ points: "4", category: " I " }))).toMatchObject({
      packageId: 3,
      day: null,
      passPercent: 70,
      category: "I",
      points: 4,
    });
  });

  it.each([
    [{ passPercent: "0" }, MSG_LEARNING_CHECK.passPercent],
    [{ passPercent: "101" }, MSG_LEARNING_CHECK.passPercent],
    [{ questions: [] }, MSG_LEARNING_CHECK.questionsMissing],
    [{ questions: [question(three.slice(0, 2))] }, MSG_LEARNING_CHECK.answerCount],
    [{ questions: [question([...three, ...three])] }, MSG_LEARNING_CHECK.answerCount],
    [{ questions: [question(three.map((a) => ({ ...a, correct: false })))] }, MSG_LEARNING_CHECK.noCorrect],
    [{ questions: [question(three, "  ")] }, MSG_LEARNING_CHECK.question],
    [{ questions: [question([{ text: " ", correct: true }, ...three.slice(1)])] }, MSG_LEARNING_CHECK.answer],
    [{ day: "12.10.2026" }, MSG_LEARNING_CHECK.day],
  ])("refuses %j in German", (over, message) => {
    expect(messages(input(over))).toContain(message);
  });
});
