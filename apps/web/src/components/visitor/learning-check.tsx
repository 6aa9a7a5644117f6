import { countOf, formatGermanDate, MSG_LEARNING_CHECK } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheckIcon, CircleXIcon } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { dayLabel } from "@/components/visitor/fortbildung-progress";
import { isOutdated, showError } from "@/lib/alerts";
import { trpc, trpcClient } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

/**
 * The package page's "Lernerfolgskontrolle" (ADR 0119, ADR 0121): per offered check what the buyer has watched,
 * a quiz of the attempt the server shuffled (without the answer key), and the result after submitting.
 */

type Check = RouterOutputs["learningChecks"]["listForPackage"][number];
type Attempt = RouterOutputs["learningChecks"]["start"];
type Result = RouterOutputs["learningChecks"]["submit"];

const TIME = new Intl.DateTimeFormat("de-DE", {
  timeZone: "Europe/Berlin",
  hour: "2-digit",
  minute: "2-digit",
});
const de = (n: number) => n.toLocaleString("de-DE");

/** Moves the focus to an element once it is shown (a heading with tabIndex -1). */
function useFocusOnShow<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

function Standing({ check }: { check: Check }) {
  const { watch } = check;
  const lines: string[] = [];
  if (!check.bought) {
    lines.push(MSG_LEARNING_CHECK.notBought);
  } else if (watch.contentMinutes === 0) {
    lines.push("Die Länge der Videos steht noch nicht fest.");
  } else {
    lines.push(
      watch.reached
        ? `Angesehen: ${de(watch.attendedMinutes)} von ${de(watch.contentMinutes)} Minuten · Voraussetzung erfüllt`
        : `Angesehen: ${de(watch.attendedMinutes)} von ${de(watch.contentMinutes)} Minuten · Lernerfolgskontrolle ab ${de(watch.requiredMinutes)} Minuten`,
    );
  }
  if (check.passedAt) {
    lines.push(`Bestanden am ${formatGermanDate(new Date(check.passedAt))}.`);
  } else if (check.lastResult) {
    lines.push(`Letzter Versuch: ${check.lastResult.scorePercent} % (nicht bestanden).`);
  }
  if (check.retryAt && !check.passedAt) {
    lines.push(`Ein neuer Versuch ist ab ${TIME.format(new Date(check.retryAt))} Uhr möglich.`);
  }
  return (
    <ul className="mt-2 flex flex-col gap-1 text-sm text-slate-700">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

function Quiz({
  attempt,
  onDone,
  onOutdated,
}: {
  attempt: Attempt;
  onDone: (result: Result) => void;
  /** the attempt was submitted (another tab) or its questions changed: the card shows the current state */
  onOutdated: () => void;
}) {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const [chosen, setChosen] = useState<Record<number, number[]>>({});
  const [missing, setMissing] = useState<number[]>([]);
  const firstInputs = useRef(new Map<number, HTMLInputElement | null>());
  const submit = useMutation({
    mutationFn: () =>
      trpcClient.learningChecks.submit.mutate({
        attemptId: attempt.attemptId,
        answers: attempt.questions.map((q) => ({ questionId: q.id, chosen: chosen[q.id] ?? [] })),
      }),
  });
  const choose = (questionId: number, index: number, multiple: boolean, on: boolean) => {
    setChosen((all) => {
      const now = all[questionId] ?? [];
      const next = multiple ? (on ? [...now, index] : now.filter((i) => i !== index)) : [index];
      return { ...all, [questionId]: next };
    });
    setMissing((m) => m.filter((id) => id !== questionId));
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const open = attempt.questions.filter((q) => !(chosen[q.id]?.length ?? 0)).map((q) => q.id);
    setMissing(open);
    if (open.length > 0) {
      firstInputs.current.get(open[0] as number)?.focus();
      return;
    }
    try {
      onDone(await submit.mutateAsync());
    } catch (error) {
      await showError(error);
      if (isOutdated(error)) {
        onOutdated();
      }
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-4 flex flex-col gap-5">
      <h3 ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 outline-none">
        {countOf(attempt.questions.length, "Frage", "Fragen")} · bestanden ab {attempt.passPercent} %
        richtigen Antworten
      </h3>
      {missing.length > 0 && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {MSG_LEARNING_CHECK.unanswered} Offen:{" "}
          {missing.length === 1 ? "eine Frage" : `${missing.length} Fragen`}.
        </p>
      )}
      {attempt.questions.map((q, n) => {
        const hintId = `lc-${attempt.attemptId}-${q.id}-hint`;
        const errorId = `lc-${attempt.attemptId}-${q.id}-error`;
        const unanswered = missing.includes(q.id);
        return (
          <fieldset
            key={q.id}
            aria-describedby={[hintId, unanswered ? errorId : ""].filter(Boolean).join(" ")}
            className="rounded-lg border border-slate-200 p-4"
          >
            <legend className="px-1 font-medium text-slate-900">
              Frage {n + 1} von {attempt.questions.length}: {q.question}
            </legend>
            <p id={hintId} className="mb-2 text-sm text-slate-600">
              {q.multiple ? "Mehrere Antworten können richtig sein." : "Wählen Sie eine Antwort."}
            </p>
            <div className="flex flex-col gap-2">
              {q.answers.map((text, i) => {
                const id = `lc-${attempt.attemptId}-${q.id}-${i}`;
                return (
                  <div key={id} className="flex items-start gap-2">
                    <input
                      ref={i === 0 ? (el) => void firstInputs.current.set(q.id, el) : undefined}
                      id={id}
                      type={q.multiple ? "checkbox" : "radio"}
                      name={`lc-${attempt.attemptId}-${q.id}`}
                      checked={chosen[q.id]?.includes(i) ?? false}
                      onChange={(event) => choose(q.id, i, q.multiple, event.target.checked)}
                      aria-invalid={unanswered || undefined}
                      className="mt-0.5 size-5 shrink-0 cursor-pointer accent-brand-600"
                    />
                    <label htmlFor={id} className="text-slate-800">
                      {text}
                    </label>
                  </div>
                );
              })}
            </div>
            {unanswered && (
              <p id={errorId} className="mt-2 text-sm text-red-700">
                Bitte wählen Sie {q.multiple ? "mindestens eine Antwort" : "eine Antwort"}.
              </p>
            )}
          </fieldset>
        );
      })}
      <Button type="submit" className="self-start" disabled={submit.isPending}>
        {submit.isPending ? "Wird ausgewertet …" : "Antworten abgeben"}
      </Button>
    </form>
  );
}

function ResultView({ result }: { result: Result }) {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const summary = `${result.passed ? "Bestanden" : "Nicht bestanden"}: ${result.correctCount} von ${countOf(result.total, "Frage", "Fragen")} richtig (${result.scorePercent} %), bestanden ab ${result.passPercent} %.`;
  return (
    <div className="mt-4">
      <h3 ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 outline-none">
        Ihr Ergebnis
      </h3>
      <p
        role="status"
        className={result.passed ? "mt-1 font-medium text-green-800" : "mt-1 font-medium text-red-800"}
      >
        {summary}
        {result.passed
          ? " Ihre Teilnahmebescheinigung für die Aufzeichnung wird ausgestellt."
          : result.retryAt
            ? ` Ein neuer Versuch ist ab ${TIME.format(new Date(result.retryAt))} Uhr möglich.`
            : ""}
      </p>
      <ol className="mt-4 flex flex-col gap-3">
        {result.questions.map((q, n) => (
          <li key={q.id} className="rounded-lg border border-slate-200 p-4">
            <p className="font-medium text-slate-900">
              Frage {n + 1}: {q.question}
            </p>
            <p className="mt-1 text-sm text-slate-700">
              Ihre Antwort: {q.chosen.map((i) => q.answers[i]).join("; ")}
            </p>
            <p
              className={
                q.correct
                  ? "mt-1 flex items-center gap-1 text-sm font-medium text-green-800"
                  : "mt-1 flex items-center gap-1 text-sm font-medium text-red-800"
              }
            >
              {q.correct ? (
                <CircleCheckIcon aria-hidden="true" className="size-4" />
              ) : (
                <CircleXIcon aria-hidden="true" className="size-4" />
              )}
              {q.correct ? "Richtig beantwortet" : "Nicht richtig beantwortet"}
            </p>
            {q.explanation && <p className="mt-2 text-sm text-slate-700">Erklärung: {q.explanation}</p>}
          </li>
        ))}
      </ol>
    </div>
  );
}

function CheckCard({ check, packageId }: { check: Check; packageId: number }) {
  const queryClient = useQueryClient();
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const start = useMutation({
    mutationFn: () => trpcClient.learningChecks.start.mutate({ checkId: check.id }),
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.learningChecks.listForPackage.queryKey({ packageId }) });
  const onStart = async () => {
    try {
      setResult(null);
      setAttempt(await start.mutateAsync());
    } catch (error) {
      await showError(error);
      await refresh();
    }
  };
  const title = check.day ? `Aufzeichnung vom ${dayLabel(check.day)}` : "Aufzeichnungen des ganzen Pakets";
  const extras = [
    check.category && `Kategorie ${check.category}`,
    check.points !== null && `${check.points} Punkte`,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <p className="text-sm text-slate-600">
        {countOf(check.questionCount, "Frage", "Fragen")} · bestanden ab {check.passPercent} %
        {extras && ` · ${extras}`}
      </p>
      <Standing check={check} />
      {attempt && !result ? (
        <Quiz
          attempt={attempt}
          onDone={(r) => {
            setResult(r);
            setAttempt(null);
            void refresh();
          }}
          onOutdated={() => {
            setAttempt(null);
            void refresh();
          }}
        />
      ) : (
        (check.canStart || check.openAttempt) &&
        !check.passedAt && (
          <Button className="mt-3" onClick={() => void onStart()} disabled={start.isPending}>
            {check.openAttempt ? "Lernerfolgskontrolle fortsetzen" : "Lernerfolgskontrolle beginnen"}
          </Button>
        )
      )}
      {result && <ResultView result={result} />}
    </li>
  );
}

/** The section, only when the package has an offered check (its event has Fortbildung). */
export function LearningChecks({ packageId }: { packageId: number }) {
  const { data } = useQuery(trpc.learningChecks.listForPackage.queryOptions({ packageId }, { retry: false }));
  if (!data || data.length === 0) {
    return null;
  }
  return (
    <section
      aria-labelledby="learning-check-heading"
      className="mt-10 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="learning-check-heading" className="text-lg font-semibold text-slate-900">
        Lernerfolgskontrolle
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Für die Bescheinigung einer Aufzeichnung beantworten Sie nach dem Ansehen einige Fragen. Sie können
        die Kontrolle wiederholen; Fragen und Antworten erscheinen jedes Mal in anderer Reihenfolge.
      </p>
      <ul className="mt-3 flex flex-col gap-3">
        {data.map((check) => (
          <CheckCard key={check.id} check={check} packageId={packageId} />
        ))}
      </ul>
    </section>
  );
}
