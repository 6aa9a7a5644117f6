import { formatEfn, MSG_EFN } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { IdCardIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

/**
 * The EFN field with its save button (ADR 0112, ADR 0114), checked by the same schema as `account.setEfn`:
 * a refusal (wrong length, wrong check digit, other characters) stands under the field. An empty field
 * clears the stored number.
 */
function EfnForm({
  stored,
  submitLabel,
  required = false,
  onSaved,
}: {
  stored: string | null;
  submitLabel: string;
  /** an empty field is a missing answer, not "remove my EFN" (the prompt has nothing to remove) */
  required?: boolean;
  onSaved?: (efn: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    // zod comes with the schema on the first submit
    schema: () => import("@app/shared/efn-input").then((m) => m.ZEfnInput),
    defaultValues: { efn: stored ? formatEfn(stored) : "" },
  });
  const save = useMutation(trpc.account.setEfn.mutationOptions());
  const onSubmit = form.submit(async (input) => {
    if (required && input.efn === null) {
      form.setError("efn", { type: "required", message: MSG_EFN.missing }, { shouldFocus: true });
      return;
    }
    // the schema runs again on the server: an empty field is sent as empty, the digits as digits
    const answer = await save.mutateAsync({ efn: input.efn ?? "" });
    form.reset({ efn: answer.efn ? formatEfn(answer.efn) : "" });
    alerts.success(answer.detail);
    onSaved?.(answer.efn);
    await queryClient.invalidateQueries(trpc.account.getProfile.queryFilter());
  });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <FormField label={MSG_EFN.label} hint={MSG_EFN.hint} error={form.errorOf("efn")} className="sm:flex-1">
        <Input
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          placeholder="80 276 … "
          {...form.register("efn")}
        />
      </FormField>
      <Button type="submit" variant="secondary" className="sm:mt-7" disabled={form.submitting}>
        {form.submitting ? "Wird gespeichert …" : submitLabel}
      </Button>
    </form>
  );
}

/** The profile's EFN: shown, changed or removed. */
export function EfnCard({ stored }: { stored: string | null }) {
  return (
    <Card aria-labelledby="efn-title">
      <CardTitle id="efn-title">Fortbildungspunkte</CardTitle>
      <p className="mb-4 text-slate-700">
        Mit Ihrer EFN melden wir die Punkte der Veranstaltungen, deren Voraussetzung Sie erreichen, an Ihre
        Kammer, und sie steht auf Ihren Teilnahmebescheinigungen. Die Angabe ist freiwillig.
      </p>
      <EfnForm stored={stored} submitLabel="EFN speichern" />
    </Card>
  );
}

/**
 * On the page of a Fortbildung event, for a participant without an EFN: a short request to enter it, in
 * the page (never a dialog that blocks it). Once saved, a thank-you line takes its place and the focus.
 */
export function EfnPrompt() {
  const profile = useQuery(trpc.account.getProfile.queryOptions());
  const [saved, setSaved] = useState(false);
  const thanks = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (saved) {
      thanks.current?.focus();
    }
  }, [saved]);
  if (saved) {
    return (
      <p ref={thanks} tabIndex={-1} role="status" className="mb-8 text-sm text-green-800 outline-none">
        Danke! Ihre EFN ist gespeichert. Sie können sie jederzeit in Ihrem{" "}
        <Link to="/profile" className="underline">
          Profil
        </Link>{" "}
        ändern.
      </p>
    );
  }
  if (!profile.data || profile.data.efn) {
    return null;
  }
  return (
    <section
      aria-labelledby="efn-prompt-heading"
      className="mb-8 rounded-lg border border-sky-200 bg-sky-50 p-4"
    >
      <h2 id="efn-prompt-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <IdCardIcon aria-hidden="true" className="size-5 shrink-0 text-sky-700" />
        Ihre EFN für die Kammer
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-700">
        Bitte hinterlegen Sie Ihre Einheitliche Fortbildungsnummer für die Meldung Ihrer Punkte an die Kammer.
        Ohne EFN erhalten Sie Ihre Teilnahmebescheinigung trotzdem.
      </p>
      <EfnForm stored={null} submitLabel="EFN speichern" required onSaved={(efn) => setSaved(efn !== null)} />
    </section>
  );
}
