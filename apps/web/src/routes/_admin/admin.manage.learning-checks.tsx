import {
  formatGermanDate,
  LEARNING_CHECK_MAX_ANSWERS,
  LEARNING_CHECK_MIN_ANSWERS,
  MSG,
  MSG_VNR,
  ZLearningCheckInput,
} from "@app/shared";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { ArrowDownIcon, ArrowUpIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { useFieldArray, useWatch } from "react-hook-form";
import { AdminResource } from "@/components/admin/admin-resource";
import { ChamberReportButtons } from "@/components/admin/chamber-report-buttons";
import { AddButton, RemoveButton } from "@/components/admin/list-buttons";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { SelectField, TextField } from "@/components/ui/text-field";
import { Textarea } from "@/components/ui/textarea";
import { dayLabel } from "@/components/visitor/fortbildung-progress";
import { alerts } from "@/lib/alerts";
import { pageSearch } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";
import {
  congressDays,
  emptyLearningCheckForm,
  type LearningCheckForm,
  learningCheckToForm,
  newLearningQuestion,
} from "./-components/admin-forms";

type Row = RouterOutputs["admin"]["learningChecks"]["getPage"]["items"][number];
type CheckForm = SchemaForm<LearningCheckForm, typeof ZLearningCheckInput>;

function ErrorText({ id, message }: { id?: string; message: string | undefined }) {
  return message ? (
    <p id={id} role="alert" className="text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

/** The package and, of its event's days, the one the check covers (or the whole package). */
function PackageAndDay({ form }: { form: CheckForm }) {
  const packages = useQuery(trpc.admin.packages.list.queryOptions());
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const packageId = useWatch({ control: form.control, name: "packageId" });
  const pkg = packages.data?.find((p) => String(p.id) === packageId);
  const congress = congresses.data?.find((c) => c.id === pkg?.congressId);
  const days = congress ? congressDays(congress.firstDay, congress.lastDay) : [];
  return (
    <>
      <SelectField
        form={form}
        name="packageId"
        label="Kongresspaket *"
        options={(packages.data ?? []).map((p) => ({
          value: p.id,
          label: `${p.name} (${p.congress.title})`,
        }))}
      />
      <FormField
        label="Gilt für"
        hint="Ein Tag: nur die Videos dieses Tages; ganzes Paket: alle Videos der Veranstaltung."
        error={form.errorOf("day")}
      >
        <Select
          {...form.register("day")}
          placeholder={null}
          options={[
            { value: "", label: "Ganzes Paket" },
            ...days.map((d) => ({ value: d, label: dayLabel(d) })),
          ]}
        />
      </FormField>
      {congress && !congress.fortbildung && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          Die Veranstaltung dieses Pakets hat keine Fortbildung: Die Lernerfolgskontrolle wird erst angeboten,
          wenn „Fortbildung“ im Veranstaltungseditor eingeschaltet ist.
        </p>
      )}
    </>
  );
}

function AnswerRow({
  form,
  q,
  a,
  onRemove,
}: {
  form: CheckForm;
  q: number;
  a: number;
  onRemove?: (() => void) | undefined;
}) {
  const name = `questions.${q}.answers.${a}.text` as const;
  const error = form.errorOf(name);
  const errorId = `question-${q}-answer-${a}-error`;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <span className="flex shrink-0 items-center gap-1.5 text-sm">
          <Checkbox id={`${errorId}-correct`} {...form.register(`questions.${q}.answers.${a}.correct`)} />
          <label htmlFor={`${errorId}-correct`}>
            richtig
            <span className="sr-only">
              {" "}
              (Frage {q + 1}, Antwort {a + 1})
            </span>
          </label>
        </span>
        <Input
          aria-label={`Frage ${q + 1}, Antwort ${a + 1}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...form.register(name)}
        />
        {onRemove && <RemoveButton label={`Frage ${q + 1}, Antwort ${a + 1} entfernen`} onClick={onRemove} />}
      </div>
      <ErrorText id={errorId} message={error} />
    </div>
  );
}

function QuestionFields({
  form,
  q,
  count,
  onMove,
  onRemove,
}: {
  form: CheckForm;
  q: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const answers = useFieldArray({ control: form.control, name: `questions.${q}.answers` });
  return (
    <fieldset className="rounded-lg border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold">Frage {q + 1}</legend>
      <div className="flex flex-col gap-3">
        <FormField label="Fragetext *" error={form.errorOf(`questions.${q}.question`)}>
          <Textarea rows={2} {...form.register(`questions.${q}.question`)} />
        </FormField>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">
            Antworten ({LEARNING_CHECK_MIN_ANSWERS} bis {LEARNING_CHECK_MAX_ANSWERS}; mindestens eine richtig)
          </p>
          {answers.fields.map((answer, a) => (
            <AnswerRow
              key={answer.id}
              form={form}
              q={q}
              a={a}
              onRemove={
                answers.fields.length > LEARNING_CHECK_MIN_ANSWERS ? () => answers.remove(a) : undefined
              }
            />
          ))}
          <ErrorText message={form.errorOf(`questions.${q}.answers`)} />
          {answers.fields.length < LEARNING_CHECK_MAX_ANSWERS && (
            <AddButton onClick={() => answers.append({ text: "", correct: false })}>
              Antwort hinzufügen
            </AddButton>
          )}
        </div>
        <FormField
          label="Erklärung"
          hint="Wird nach dem Abgeben mit dem Ergebnis gezeigt."
          error={form.errorOf(`questions.${q}.explanation`)}
        >
          <Textarea rows={2} {...form.register(`questions.${q}.explanation`)} />
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={q === 0}
            onClick={() => onMove(q - 1)}
          >
            <ArrowUpIcon aria-hidden="true" className="size-4" /> Nach oben
            <span className="sr-only"> (Frage {q + 1})</span>
          </Button>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={q === count - 1}
            onClick={() => onMove(q + 1)}
          >
            <ArrowDownIcon aria-hidden="true" className="size-4" /> Nach unten
            <span className="sr-only"> (Frage {q + 1})</span>
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={onRemove} disabled={count === 1}>
            <XIcon aria-hidden="true" className="size-4" /> Frage entfernen
            <span className="sr-only"> (Frage {q + 1})</span>
          </Button>
        </div>
      </div>
    </fieldset>
  );
}

function CheckFields({ form }: { form: CheckForm }) {
  const questions = useFieldArray({ control: form.control, name: "questions" });
  const [moved, setMoved] = useState("");
  const move = (from: number, to: number) => {
    questions.move(from, to);
    setMoved(`Frage ${from + 1} ist jetzt Frage ${to + 1}.`);
  };
  const remove = async (q: number) => {
    const sure = await alerts.confirm({
      title: MSG.deleteConfirmTitle,
      detail: `Frage ${q + 1} wird aus der Lernerfolgskontrolle entfernt (gespeichert wird erst mit „Speichern“).`,
      confirmLabel: MSG.deleteConfirmButton,
    });
    if (sure) {
      questions.remove(q);
      setMoved(`Frage ${q + 1} wurde entfernt.`);
    }
  };
  return (
    <>
      <PackageAndDay form={form} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="passPercent" label="Bestehensgrenze in % *" inputMode="numeric" />
        <TextField form={form} name="points" label="Punkte" hint="leer: wie die Tage" inputMode="numeric" />
      </div>
      {/* a recording is a measure of its own: the chamber gives it its own number, not the live event's */}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="vnr" label="VNR" hint={MSG_VNR.hint} inputMode="numeric" />
        <TextField
          form={form}
          name="category"
          label="Kategorie"
          hint="der Bescheinigung, z. B. I (Selbststudium)"
        />
      </div>
      <p role="status" className="sr-only">
        {moved}
      </p>
      {questions.fields.map((question, q) => (
        <QuestionFields
          key={question.id}
          form={form}
          q={q}
          count={questions.fields.length}
          onMove={(to) => move(q, to)}
          onRemove={() => void remove(q)}
        />
      ))}
      <ErrorText message={form.errorOf("questions")} />
      <AddButton small={false} onClick={() => questions.append(newLearningQuestion())}>
        Frage hinzufügen
      </AddButton>
    </>
  );
}

function CheckEditor({ row }: { row: Row | null }) {
  const stored = useQuery({
    ...trpc.admin.learningChecks.get.queryOptions({ id: row?.id ?? 0 }),
    enabled: row !== null,
  });
  // the package and day selects take their stored values only once their options are there: a select
  // without its option would show "Bitte wählen …" (and the whole package) for a stored check
  const packages = useQuery(trpc.admin.packages.list.queryOptions());
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const listsLoaded = packages.data !== undefined && congresses.data !== undefined;
  const values = row ? stored.data && learningCheckToForm(stored.data) : emptyLearningCheckForm();
  const defaultValues = listsLoaded ? values : undefined;
  return (
    <ResourceEditor
      title={row ? "Lernerfolgskontrolle bearbeiten" : "Neue Lernerfolgskontrolle"}
      description="Multiple-Choice-Fragen zur Aufzeichnung eines Kongresspakets. Wer das Paket gekauft und den erforderlichen Anteil angesehen hat, kann sie ablegen; Fragen und Antworten erscheinen in zufälliger Reihenfolge."
      schema={ZLearningCheckInput}
      defaultValues={defaultValues}
      save={trpcClient.admin.learningChecks.save.mutate}
      success="Die Lernerfolgskontrolle wurde gespeichert."
      wide
    >
      {(form) => <CheckFields form={form} />}
    </ResourceEditor>
  );
}

const checksPage = (page = 1) => trpc.admin.learningChecks.getPage.queryOptions({ page });

export const Route = createFileRoute("/_admin/admin/manage/learning-checks")({
  staticData: {
    adminSection: { label: "Lernerfolgskontrollen", group: "Veranstaltungen & Inhalte", position: 3.6 },
  },
  validateSearch: pageSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => queryClient.ensureQueryData(checksPage(deps.page)),
  component: LearningChecksTab,
  errorComponent: LazySectionError,
});

const checkName = (r: Row) =>
  `Lernerfolgskontrolle ${r.packageName}${r.day ? `, ${formatGermanDate(r.day)}` : ""}`;

function LearningChecksTab() {
  return (
    <AdminResource<Row>
      list={checksPage}
      intro="Lernerfolgskontrollen für Aufzeichnungen: pro Kongresspaket oder pro Tag seiner Veranstaltung. Bestanden ist, wer mindestens die Bestehensgrenze erreicht; eine Frage zählt nur, wenn genau die richtigen Antworten gewählt sind."
      columns={[
        {
          header: "Kongresspaket",
          cell: (r) => (
            <>
              {r.packageName}
              <span className="block text-xs text-slate-600">{r.congressTitle}</span>
              {!r.fortbildung && (
                <span className="block text-xs text-amber-800">nicht angeboten: keine Fortbildung</span>
              )}
            </>
          ),
        },
        { header: "Gilt für", cell: (r) => (r.day ? dayLabel(r.day) : "Ganzes Paket") },
        { header: "Fragen", cell: (r) => r.questionCount },
        { header: "Bestehensgrenze", cell: (r) => `${r.passPercent} %` },
        {
          header: "VNR / Kategorie / Punkte",
          cell: (r) => (
            <>
              {r.vnr ?? <span className="text-amber-800">keine VNR</span>}
              <span className="block text-xs text-slate-600">
                {r.category ?? "–"} / {r.points ?? "wie die Tage"}
              </span>
            </>
          ),
        },
        { header: "Versuche / bestanden", cell: (r) => `${r.attemptCount} / ${r.passedCount}` },
        {
          header: "Meldung an die Kammer",
          cell: (r) => (
            <ChamberReportButtons
              path={`/api/admin/exports/recording-chamber-report/${r.id}`}
              what={`der ${checkName(r)}`}
            />
          ),
        },
      ]}
      rowName={checkName}
      create="Neue Lernerfolgskontrolle"
      editor={(row) => <CheckEditor row={row} />}
      remove={{
        run: (r) => trpcClient.admin.learningChecks.delete.mutate({ id: r.id }),
        detail: (r) =>
          `Die ${checkName(r)} wird mit ihren Fragen und allen Versuchen gelöscht. Ausgestellte Bescheinigungen bleiben gültig.`,
        success: "Die Lernerfolgskontrolle wurde gelöscht.",
        failure: "Die Lernerfolgskontrolle konnte nicht gelöscht werden.",
      }}
    />
  );
}
