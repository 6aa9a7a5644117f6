import { schema } from "@app/db";
import {
  formatGermanDate,
  LEARNING_CHECK_RETRY_MINUTES,
  MSG,
  MSG_CHAMBER_REPORT,
  MSG_LEARNING_CHECK,
  MSG_VNR,
} from "@app/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  adminAndVisitor,
  createCongress,
  createContent,
  createPackage,
  createUser,
  packageOrder,
  relDay,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";

/** ADR 0119, ADR 0120, ADR 0121: learning-success checks for recordings, through the wire as the browser calls them. */

let t: TestApp;
let admin: { adminId: number; adminToken: string; visitorToken: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminAndVisitor(t);
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  t.clock.reset();
});
const db = () => t.db.db;
let seq = 0;
const unique = () => `${Date.now().toString(36)}-${++seq}`;

/** Ten questions, each with one correct answer (the first as written) and a marked explanation. */
function questions(n = 10, tag = unique()) {
  return Array.from({ length: n }, (_, i) => ({
    question: `Frage ${i + 1} ${tag}`,
    answers: [
      { text: `Richtig ${i + 1} ${tag}`, correct: true },
      { text: `Falsch A ${i + 1} ${tag}`, correct: false },
      { text: `Falsch B ${i + 1} ${tag}`, correct: false },
      { text: `Falsch C ${i + 1} ${tag}`, correct: false },
    ],
    explanation: `ERKLAERUNG-${i + 1}-${tag}`,
  }));
}

/**
 * A past Fortbildung event (80% required) with two 10-minute videos, its package, and a check of the whole
 * package written by the admin through `admin.learningChecks.save`.
 */
async function scene(values: { passPercent?: string; qs?: ReturnType<typeof questions>; vnr?: string } = {}) {
  const congress = await createCongress(db(), {
    fortbildung: true,
    requiredPercent: 80,
    firstDay: relDay(-20),
    lastDay: relDay(-20),
  });
  const urls = [videoUrl(), videoUrl()];
  for (const url of urls) {
    await db()
      .insert(schema.videoPreviews)
      .values({ key: previewKey(url), url, durationSeconds: 600 });
  }
  await createContent(db(), congress.id, [{ urls }]);
  const pkg = await createPackage(db(), congress.id);
  const qs = values.qs ?? questions();
  const saved = await trpcMutation(
    t,
    "admin.learningChecks.save",
    {
      packageId: String(pkg.id),
      day: "",
      passPercent: values.passPercent ?? "70",
      category: "I",
      points: "3",
      ...(values.vnr !== undefined && { vnr: values.vnr }),
      questions: qs,
    },
    { token: admin.adminToken },
  );
  expect(saved.status, saved.body).toBe(200);
  return { congress, urls, pkg, checkId: saved.data.id as number, qs };
}

type Scene = Awaited<ReturnType<typeof scene>>;

/** A buyer (paid order) who watched `seconds` of each video on the package's page. */
async function buyer(
  s: Scene,
  seconds = 600,
  status: "paid" | "canceled" = "paid",
  values: Parameters<typeof createUser>[1] = {},
) {
  const user = await createUser(db(), values);
  await packageOrder(db(), user.id, s.pkg.id, status);
  if (seconds > 0) {
    for (const url of s.urls) {
      await db()
        .insert(schema.watchTime)
        .values({
          userId: user.id,
          congressId: s.congress.id,
          day: relDay(-2),
          videoKey: previewKey(url),
          packageId: s.pkg.id,
          source: "player",
          played: `{[0,${seconds})}`,
          seconds,
        });
    }
  }
  return { user, token: await t.tokenFor(user.id) };
}

/** The stored answer key of an attempt, as shown positions: for each shown question the correct places. */
async function keyOf(attemptId: number) {
  const [attempt] = await db()
    .select()
    .from(schema.learningCheckAttempts)
    .where(eq(schema.learningCheckAttempts.id, attemptId));
  const qs = await db()
    .select()
    .from(schema.learningCheckQuestions)
    .where(eq(schema.learningCheckQuestions.checkId, attempt?.checkId ?? 0));
  return (attempt?.shown ?? []).map((s) => {
    const q = qs.find((x) => x.id === s.questionId);
    const right = s.answerOrder.flatMap((stored, place) => (q?.answers[stored]?.correct ? [place] : []));
    const wrong = s.answerOrder.flatMap((stored, place) => (q?.answers[stored]?.correct ? [] : [place]));
    return { questionId: s.questionId, right, wrong };
  });
}

/** Answers with `nRight` questions right and the others wrong. */
async function answersWith(attemptId: number, nRight: number) {
  return (await keyOf(attemptId)).map((k, i) => ({
    questionId: k.questionId,
    chosen: i < nRight ? k.right : [k.wrong[0] as number],
  }));
}

const start = (s: Scene, token: string) =>
  trpcMutation(t, "learningChecks.start", { checkId: s.checkId }, { token });
const submit = (attemptId: number, answers: unknown, token: string) =>
  trpcMutation(t, "learningChecks.submit", { attemptId, answers }, { token });

describe("the answer key never leaves the server before submission", () => {
  it("neither the package's list nor a started attempt carries a correct flag or an explanation, on the wire", async () => {
    const s = await scene();
    const me = await buyer(s);
    const list = await trpcQuery(t, "learningChecks.listForPackage", { packageId: s.pkg.id }, me);
    expect(list.status, list.body).toBe(200);
    expect(list.data).toEqual([
      expect.objectContaining({ id: s.checkId, questionCount: 10, bought: true, canStart: true }),
    ]);
    const started = await start(s, me.token);
    expect(started.status, started.body).toBe(200);
    for (const body of [list.body, started.body]) {
      expect(body).not.toMatch(/"correct"/);
      expect(body).not.toMatch(/ERKLAERUNG/);
      expect(body).not.toMatch(/explanation/);
    }
    // the questions and answer texts are there, without a hint in their order: every answer of a question
    expect(started.data.questions).toHaveLength(10);
    for (const q of started.data.questions) {
      expect(Object.keys(q).sort()).toEqual(["answers", "id", "multiple", "question"]);
      expect(q.answers).toHaveLength(4);
      expect(q.multiple).toBe(false);
    }
    // after submission the explanations come with the result
    const result = await submit(
      started.data.attemptId,
      await answersWith(started.data.attemptId, 10),
      me.token,
    );
    expect(result.status, result.body).toBe(200);
    expect(result.body).toMatch(/ERKLAERUNG/);
  });
});

describe("scoring", () => {
  it("passes at the boundary: 7 of 10 at 70% passes, 6 of 10 fails", async () => {
    const s = await scene();
    await db()
      .insert(schema.certificateIssuer)
      .values({ id: 1, name: "Institut für Fortbildung" })
      .onConflictDoNothing();
    const seven = await buyer(s);
    const a = await start(s, seven.token);
    const passed = await submit(a.data.attemptId, await answersWith(a.data.attemptId, 7), seven.token);
    expect(passed.status, passed.body).toBe(200);
    expect(passed.data).toMatchObject({
      correctCount: 7,
      total: 10,
      scorePercent: 70,
      passed: true,
      retryAt: null,
    });
    expect(passed.data.questions.filter((q: { correct: boolean }) => q.correct)).toHaveLength(7);

    const six = await buyer(s);
    const b = await start(s, six.token);
    const failed = await submit(b.data.attemptId, await answersWith(b.data.attemptId, 6), six.token);
    expect(failed.data).toMatchObject({ correctCount: 6, scorePercent: 60, passed: false });

    // the admin's table counts questions, submitted attempts and who passed
    const page = await trpcQuery(t, "admin.learningChecks.getPage", { page: 1 }, { token: admin.adminToken });
    expect(page.data.items.find((r: { id: number }) => r.id === s.checkId)).toMatchObject({
      questionCount: 10,
      attemptCount: 2,
      passedCount: 1,
    });
    const stored = await db()
      .select({ userId: schema.learningCheckAttempts.userId, passed: schema.learningCheckAttempts.passed })
      .from(schema.learningCheckAttempts)
      .where(eq(schema.learningCheckAttempts.checkId, s.checkId));
    expect(stored).toEqual(
      expect.arrayContaining([
        { userId: seven.user.id, passed: true },
        { userId: six.user.id, passed: false },
      ]),
    );
    // passing issued the recording's certificate (ADR 0120), failing none
    const issued = await db()
      .select({ userId: schema.certificates.userId, kind: schema.certificates.kind })
      .from(schema.certificates)
      .where(eq(schema.certificates.learningCheckId, s.checkId));
    expect(issued).toEqual([{ userId: seven.user.id, kind: "recording" }]);
  });

  it("counts a question with several correct answers only when exactly those are chosen", async () => {
    const qs = [
      {
        question: "Welche sind Primzahlen?",
        answers: [
          { text: "2", correct: true },
          { text: "3", correct: true },
          { text: "4", correct: false },
        ],
        explanation: "2 und 3.",
      },
    ];
    const s = await scene({ qs, passPercent: "100" });
    const me = await buyer(s);
    const a = await start(s, me.token);
    expect(a.data.questions[0].multiple).toBe(true);
    const [k] = await keyOf(a.data.attemptId);
    if (!k) {
      throw new Error("no key");
    }
    const partial = await submit(
      a.data.attemptId,
      [{ questionId: k.questionId, chosen: [k.right[0]] }],
      me.token,
    );
    expect(partial.data).toMatchObject({ correctCount: 0, passed: false });
    t.clock.set(new Date(Date.now() + LEARNING_CHECK_RETRY_MINUTES * 60_000 + 1000));
    const b = await start(s, me.token);
    const [k2] = await keyOf(b.data.attemptId);
    const all = [...(k2?.right ?? []), ...(k2?.wrong ?? [])];
    const over = await submit(b.data.attemptId, [{ questionId: k2?.questionId, chosen: all }], me.token);
    expect(over.data).toMatchObject({ correctCount: 0, passed: false });
  });
});

describe("attempts", () => {
  it("started eight times at once (a double click, a second tab) is one open attempt, shown to every start", async () => {
    const s = await scene();
    const me = await buyer(s);
    const starts = await Promise.all(Array.from({ length: 8 }, () => start(s, me.token)));
    for (const started of starts) {
      expect(started.status, started.body).toBe(200);
    }
    expect(new Set(starts.map((started) => started.data.attemptId)).size).toBe(1);
    expect(starts.every((started) => JSON.stringify(started.data) === JSON.stringify(starts[0]?.data))).toBe(
      true,
    );
    const rows = await db()
      .select()
      .from(schema.learningCheckAttempts)
      .where(eq(schema.learningCheckAttempts.userId, me.user.id));
    expect(rows).toHaveLength(1);
  });

  it("are shuffled per attempt and the order is stored; a new one waits after a failure; none after a pass", async () => {
    const s = await scene();
    const me = await buyer(s);
    const first = await start(s, me.token);
    // a reload shows the same open attempt
    expect((await start(s, me.token)).data).toEqual(first.data);
    const [row] = await db()
      .select()
      .from(schema.learningCheckAttempts)
      .where(eq(schema.learningCheckAttempts.id, first.data.attemptId));
    const texts = async (attemptId: number) => {
      const qs = await db()
        .select()
        .from(schema.learningCheckQuestions)
        .where(eq(schema.learningCheckQuestions.checkId, s.checkId));
      const [a] = await db()
        .select()
        .from(schema.learningCheckAttempts)
        .where(eq(schema.learningCheckAttempts.id, attemptId));
      return (a?.shown ?? []).map((sh) => {
        const q = qs.find((x) => x.id === sh.questionId);
        return { id: q?.id, question: q?.question, answers: sh.answerOrder.map((i) => q?.answers[i]?.text) };
      });
    };
    // what was sent is what is stored
    expect(first.data.questions.map((q: { id: number; question: string; answers: string[] }) => q)).toEqual(
      (await texts(first.data.attemptId)).map((q) => ({ ...q, multiple: false })),
    );
    expect(row?.shown).toHaveLength(10);

    await submit(first.data.attemptId, await answersWith(first.data.attemptId, 0), me.token);
    const early = await start(s, me.token);
    expect(early.status).toBe(403);
    expect(early.error?.detail).toMatch(/^Ein neuer Versuch ist ab \d\d:\d\d Uhr möglich\.$/);

    t.clock.set(new Date(Date.now() + LEARNING_CHECK_RETRY_MINUTES * 60_000 + 1000));
    const second = await start(s, me.token);
    expect(second.status, second.body).toBe(200);
    expect(second.data.attemptId).not.toBe(first.data.attemptId);
    const order = (d: { questions: { id: number; answers: string[] }[] }) =>
      JSON.stringify(d.questions.map((q) => [q.id, q.answers]));
    // 10! question orders times 24^10 answer orders: two equal ones are no coincidence
    expect(order(second.data)).not.toBe(order(first.data));

    const passed = await submit(
      second.data.attemptId,
      await answersWith(second.data.attemptId, 10),
      me.token,
    );
    expect(passed.data.passed).toBe(true);
    const list = await trpcQuery(t, "learningChecks.listForPackage", { packageId: s.pkg.id }, me);
    expect(list.data[0]).toMatchObject({ attempts: 2, canStart: false, lastResult: { passed: true } });
    const again = await start(s, me.token);
    expect(again.status).toBe(403);
    expect(again.error?.detail).toBe(MSG_LEARNING_CHECK.alreadyPassed);
  });

  it("are submitted once, only by their owner, only with the shown questions and answers", async () => {
    const s = await scene();
    const me = await buyer(s);
    const other = await buyer(s);
    const a = await start(s, me.token);
    const answers = await answersWith(a.data.attemptId, 10);

    const theirs = await submit(a.data.attemptId, answers, other.token);
    expect(theirs.status).toBe(404);
    expect(theirs.error?.detail).toBe(MSG_LEARNING_CHECK.attemptNotFound);

    const foreign = await submit(
      a.data.attemptId,
      [...answers.slice(1), { questionId: 2_000_000, chosen: [0] }],
      me.token,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.error?.detail).toBe(MSG_LEARNING_CHECK.answersInvalid);
    const missing = await submit(a.data.attemptId, answers.slice(1), me.token);
    expect(missing.error?.detail).toBe(MSG_LEARNING_CHECK.unanswered);
    const twoOnSingle = await submit(
      a.data.attemptId,
      answers.map((x, i) => (i === 0 ? { ...x, chosen: [0, 1] } : x)),
      me.token,
    );
    expect(twoOnSingle.error?.detail).toBe(MSG_LEARNING_CHECK.oneAnswer);
    const outOfRange = await submit(
      a.data.attemptId,
      answers.map((x, i) => (i === 0 ? { ...x, chosen: [4] } : x)),
      me.token,
    );
    expect(outOfRange.status).toBe(400);

    const [untouched] = await db()
      .select()
      .from(schema.learningCheckAttempts)
      .where(eq(schema.learningCheckAttempts.id, a.data.attemptId));
    expect(untouched?.submittedAt).toBeNull();

    const [one, two] = await Promise.all([
      submit(a.data.attemptId, answers, me.token),
      submit(a.data.attemptId, answers, me.token),
    ]);
    expect([one?.status, two?.status].sort()).toEqual([200, 409]);
  });
});

describe("who may take a check", () => {
  it("a non-buyer and a buyer below the watch share get 403 with a German reason", async () => {
    const s = await scene();
    const stranger = await buyer(s, 600, "canceled");
    const refused = await start(s, stranger.token);
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({
      title: MSG_LEARNING_CHECK.refusedTitle,
      detail: MSG_LEARNING_CHECK.notBought,
    });
    // 80% of 20 minutes are 16: 7:59 of each video is 15 minutes (whole minutes, as the day's rule)
    const below = await buyer(s, 479);
    const notYet = await start(s, below.token);
    expect(notYet.status).toBe(403);
    expect(notYet.error?.detail).toBe(MSG_LEARNING_CHECK.notWatched);
    const list = await trpcQuery(t, "learningChecks.listForPackage", { packageId: s.pkg.id }, below);
    expect(list.data[0]).toMatchObject({
      canStart: false,
      watch: { contentMinutes: 20, attendedMinutes: 15, requiredMinutes: 16, reached: false },
    });
    const enough = await buyer(s, 480);
    expect((await start(s, enough.token)).status).toBe(200);

    // watch time of the event page (no package) does not count for the recording
    const live = await buyer(s, 0);
    await db()
      .insert(schema.watchTime)
      .values({
        userId: live.user.id,
        congressId: s.congress.id,
        day: relDay(-20),
        videoKey: previewKey(s.urls[0] as string),
        source: "player",
        played: "{[0,600)}",
        seconds: 600,
      });
    expect((await start(s, live.token)).error?.detail).toBe(MSG_LEARNING_CHECK.notWatched);
    // and a submission of a buyer whose order was refunded since is refused as well
    const refunded = await buyer(s);
    const a = await start(s, refunded.token);
    await db()
      .update(schema.congressPackageOrders)
      .set({ status: "canceled" })
      .where(
        and(
          eq(schema.congressPackageOrders.userId, refunded.user.id),
          eq(schema.congressPackageOrders.congressPackageId, s.pkg.id),
        ),
      );
    const late = await submit(a.data.attemptId, await answersWith(a.data.attemptId, 10), refunded.token);
    expect(late.status).toBe(403);
  });

  it("is offered only for an event with Fortbildung; anonymous callers get 401", async () => {
    const s = await scene();
    const me = await buyer(s);
    await db()
      .update(schema.congresses)
      .set({ fortbildung: false })
      .where(eq(schema.congresses.id, s.congress.id));
    expect((await trpcQuery(t, "learningChecks.listForPackage", { packageId: s.pkg.id }, me)).data).toEqual(
      [],
    );
    expect((await start(s, me.token)).error?.detail).toBe(MSG_LEARNING_CHECK.notOffered);
    const anonymous = await trpcMutation(t, "learningChecks.start", { checkId: s.checkId });
    expect(anonymous.status).toBe(401);
  });
});

describe("the admin's editor", () => {
  it("is for admins only: a visitor gets 403, anonymous 401", async () => {
    const s = await scene();
    for (const [path, kind, input] of [
      ["admin.learningChecks.getPage", "query", { page: 1 }],
      ["admin.learningChecks.get", "query", { id: s.checkId }],
      ["admin.learningChecks.delete", "mutation", { id: s.checkId }],
    ] as const) {
      const call = (token?: string) =>
        kind === "query" ? trpcQuery(t, path, input, { token }) : trpcMutation(t, path, input, { token });
      expect((await call()).status, path).toBe(401);
      const visitor = await call(admin.visitorToken);
      expect(visitor.status, path).toBe(403);
      expect(visitor.error?.detail).toBe(MSG.forbiddenDetail);
    }
  });

  it("refuses bad input with German field errors, and keeps question ids, order and the audit entry", async () => {
    const s = await scene();
    const base = { packageId: String(s.pkg.id), day: "", passPercent: "70", category: "", points: "" };
    const bad = await trpcMutation(
      t,
      "admin.learningChecks.save",
      {
        ...base,
        passPercent: "0",
        questions: [{ question: "", answers: [{ text: "A", correct: false }], explanation: "" }],
      },
      { token: admin.adminToken },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toContain(MSG_LEARNING_CHECK.passPercent);
    expect(bad.body).toContain(MSG_LEARNING_CHECK.answerCount);
    expect(bad.body).toContain(MSG_LEARNING_CHECK.question);
    expect(bad.body).toContain(MSG_LEARNING_CHECK.noCorrect);

    const duplicate = await trpcMutation(
      t,
      "admin.learningChecks.save",
      { ...base, questions: questions(1) },
      { token: admin.adminToken },
    );
    expect(duplicate.status, duplicate.body).toBe(400);
    expect(JSON.parse(duplicate.body).error.json.data.fieldErrors).toEqual({
      day: [MSG_LEARNING_CHECK.duplicate],
    });
    const outside = await trpcMutation(
      t,
      "admin.learningChecks.save",
      { ...base, day: relDay(5), questions: questions(1) },
      { token: admin.adminToken },
    );
    expect(JSON.parse(outside.body).error.json.data.fieldErrors).toEqual({
      day: [MSG_LEARNING_CHECK.dayOutside],
    });

    const stored = await trpcQuery(
      t,
      "admin.learningChecks.get",
      { id: s.checkId },
      { token: admin.adminToken },
    );
    const [first, second, ...rest] = stored.data.questions;
    const reordered = [second, { ...first, question: "Geändert?" }, ...rest.slice(0, -1)];
    const saved = await trpcMutation(
      t,
      "admin.learningChecks.save",
      { ...base, id: s.checkId, passPercent: "80", questions: reordered },
      { token: admin.adminToken },
    );
    expect(saved.status, saved.body).toBe(200);
    const after = await trpcQuery(
      t,
      "admin.learningChecks.get",
      { id: s.checkId },
      { token: admin.adminToken },
    );
    expect(after.data.passPercent).toBe(80);
    expect(after.data.questions.map((q: { id: number }) => q.id)).toEqual(reordered.map((q) => q.id));
    expect(after.data.questions[1].question).toBe("Geändert?");
    const audit = await db()
      .select({ action: schema.auditLog.action, actorId: schema.auditLog.actorId })
      .from(schema.auditLog)
      .where(
        and(eq(schema.auditLog.entity, "learning-check"), eq(schema.auditLog.entityId, String(s.checkId))),
      );
    expect(audit).toEqual([
      { action: "learning-check.create", actorId: admin.adminId },
      { action: "learning-check.save", actorId: admin.adminId },
    ]);

    const removed = await trpcMutation(
      t,
      "admin.learningChecks.delete",
      { id: s.checkId },
      { token: admin.adminToken },
    );
    expect(removed.status).toBe(200);
    expect(
      await db().$count(schema.learningCheckQuestions, eq(schema.learningCheckQuestions.checkId, s.checkId)),
    ).toBe(0);
  });
});

describe("a recording as a measure of its own", () => {
  const EVENT_VNR = "2760602026000000017";
  const CHECK_VNR = "2760602026999990001";
  // check digit worked out by hand in packages/shared/src/efn.test.ts
  const EFN = "802760901234566";
  const lines = (body: string) =>
    body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
  const report = (checkId: number, list = "") =>
    t.app.inject({
      method: "GET",
      url: `/api/admin/exports/recording-chamber-report/${checkId}.csv${list && `?list=${list}`}`,
      headers: { authorization: `Bearer ${admin.adminToken}` },
    });

  it("has its own VNR and category on the certificate, and its passes with EFN and date in a chamber report of their own", async () => {
    await db()
      .insert(schema.certificateIssuer)
      .values({ id: 1, name: "Institut für Fortbildung" })
      .onConflictDoNothing();
    // the VNR pasted in groups, as the chamber's letter prints it
    const s = await scene({ vnr: "276 0602 0269 9999 0001" });
    await db()
      .update(schema.congresses)
      .set({ vnr: EVENT_VNR })
      .where(eq(schema.congresses.id, s.congress.id));
    const stored = await trpcQuery(
      t,
      "admin.learningChecks.get",
      { id: s.checkId },
      { token: admin.adminToken },
    );
    expect(stored.data).toMatchObject({ vnr: CHECK_VNR, category: "I" });

    const pass = async (who: Awaited<ReturnType<typeof buyer>>, at: string) => {
      t.clock.set(new Date(at));
      // a token of that moment: its 15 minutes run on the clock (ADR 0144)
      const token = await t.tokenFor(who.user.id);
      const a = await start(s, token);
      const result = await submit(a.data.attemptId, await answersWith(a.data.attemptId, 10), token);
      expect(result.data?.passed, result.body).toBe(true);
    };
    const [before, yesterday] = [relDay(-3), relDay(-1)];
    const ada = await buyer(s, 600, "paid", { firstname: "Ada", lastname: "Ärztin", efn: EFN });
    await pass(ada, `${before}T23:30:00Z`);
    const otto = await buyer(s, 600, "paid", { firstname: "Otto", lastname: "Ohne" });
    await pass(otto, `${yesterday}T10:00:00Z`);
    const rita = await buyer(s, 600, "paid", { firstname: "Rita", lastname: "Revoked", efn: EFN });
    await pass(rita, `${yesterday}T11:00:00Z`);
    t.clock.reset();

    const certificates = await db()
      .select()
      .from(schema.certificates)
      .where(eq(schema.certificates.learningCheckId, s.checkId));
    expect(certificates).toHaveLength(3);
    for (const c of certificates) {
      expect(c.facts).toMatchObject({ kind: "recording", vnr: CHECK_VNR, category: "I", points: 3 });
    }
    const ritas = certificates.find((c) => c.userId === rita.user.id);
    const revoked = await trpcMutation(
      t,
      "admin.certificates.revoke",
      { id: ritas?.id, reason: "Doppelt bestanden" },
      { token: admin.adminToken },
    );
    expect(revoked.status).toBe(200);

    // 23:30 UTC is the next day in Berlin: the date of passing is the Berlin day
    const csv = await report(s.checkId);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(lines(csv.body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${CHECK_VNR};${EFN};Ärztin;Ada;${formatGermanDate(relDay(-2))};3`,
    ]);
    const without = await report(s.checkId, "ohne-efn");
    expect(lines(without.body)).toEqual([
      "VNR;Nachname;Vorname;E-Mail;Datum;Punkte",
      `${CHECK_VNR};Ohne;Otto;${otto.user.email};${formatGermanDate(yesterday)};3`,
    ]);
    expect(csv.headers["content-disposition"]).toMatch(
      /^attachment; filename="kammermeldung-lernerfolgskontrolle-.+\.csv"$/,
    );
    // nothing of the live event's number
    expect(csv.body).not.toContain(EVENT_VNR);
  });

  it("is refused while no issuer is named, and then lists a pass whose certificate waited for the name", async () => {
    const s = await scene({ vnr: CHECK_VNR });
    const me = await buyer(s, 600, "paid", { efn: EFN });
    await db().insert(schema.certificateIssuer).values({ id: 1 }).onConflictDoNothing();
    await db().update(schema.certificateIssuer).set({ name: "" });
    try {
      const a = await start(s, me.token);
      await submit(a.data.attemptId, await answersWith(a.data.attemptId, 10), me.token);
      const refused = await report(s.checkId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe(MSG_CHAMBER_REPORT.noIssuer);
    } finally {
      await db().update(schema.certificateIssuer).set({ name: "Institut für Fortbildung" });
    }
    const listed = await report(s.checkId);
    expect(lines(listed.body)).toEqual([
      "VNR;EFN;Nachname;Vorname;Datum;Punkte",
      `${CHECK_VNR};${EFN};${me.user.lastname};${me.user.firstname};${formatGermanDate(relDay(0))};3`,
    ]);
  });

  it("refuses a VNR that is not 19 digits at the editor's field", async () => {
    const s = await scene();
    const stored = await trpcQuery(
      t,
      "admin.learningChecks.get",
      { id: s.checkId },
      { token: admin.adminToken },
    );
    const saved = await trpcMutation(
      t,
      "admin.learningChecks.save",
      {
        ...stored.data,
        packageId: String(s.pkg.id),
        passPercent: "70",
        points: "3",
        day: "",
        vnr: "VNR 12345",
      },
      { token: admin.adminToken },
    );
    expect(saved.status).toBe(400);
    expect(JSON.parse(saved.body).error.json.data.fieldErrors).toEqual({ vnr: [MSG_VNR.length(5)] });
  });
});
