import {
  CONSENT_KIND_LABELS,
  CONSENT_SOURCE_LABELS,
  type ConsentKind,
  type ConsentSource,
  formatGermanDateTime,
  MSG_PRIVACY,
} from "@app/shared";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { DownloadIcon } from "lucide-react";
import { useState } from "react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { FormField, InlineField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { EfnCard } from "@/components/visitor/efn-form";
import { MyCertificates } from "@/components/visitor/my-certificates";
import { alerts, errorBody, showError } from "@/lib/alerts";
import { signOutEverywhere } from "@/lib/auth";
import { loginPage } from "@/lib/guards";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

export const Route = createFileRoute("/_user/profile")({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(context.trpc.account.getProfile.queryOptions()),
      context.queryClient.ensureQueryData(context.trpc.account.listConsents.queryOptions()),
    ]),
  component: Profile,
});

function Profile() {
  const { data: profile } = useSuspenseQuery(trpc.account.getProfile.queryOptions());
  return (
    <Page title="Mein Profil">
      <div className="flex max-w-2xl flex-col gap-6">
        <Card>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-3">
            <dt className="font-medium text-slate-700">Name</dt>
            <dd>
              {profile.firstname} {profile.lastname}
            </dd>
            <dt className="font-medium text-slate-700">E-Mail</dt>
            <dd className="break-all">{profile.email}</dd>
          </dl>
        </Card>
        <EfnCard stored={profile.efn} />
        <MyCertificates />
        <Newsletter subscribed={profile.newsletter} />
        <DataDownload />
        <DeleteAccount />
      </div>
    </Page>
  );
}

/** The newsletter consent, given or withdrawn at any time, with its history (DSGVO Art. 7). */
function Newsletter({ subscribed }: { subscribed: boolean }) {
  const queryClient = useQueryClient();
  const consents = useSuspenseQuery(trpc.account.listConsents.queryOptions());
  const change = useMutation(
    trpc.account.setNewsletter.mutationOptions({
      onSuccess: async (answer) => {
        alerts.success(answer.detail);
        await Promise.all([
          queryClient.invalidateQueries(trpc.account.getProfile.queryFilter()),
          queryClient.invalidateQueries(trpc.account.listConsents.queryFilter()),
        ]);
      },
      onError: (error) => void showError(error),
    }),
  );
  return (
    <Card aria-labelledby="newsletter-title">
      <CardTitle id="newsletter-title">Newsletter und Einwilligungen</CardTitle>
      <InlineField label="Ich möchte den Newsletter erhalten">
        <Switch
          checked={subscribed}
          disabled={change.isPending}
          onCheckedChange={(newsletter) => change.mutate({ newsletter })}
        />
      </InlineField>
      <p className="mt-2 text-sm text-slate-700">
        Sie können Ihre Einwilligung jederzeit hier widerrufen; jede Änderung wird mit Zeitpunkt festgehalten.
      </p>
      <h3 className="mt-5 font-semibold text-slate-900">Ihre Einwilligungen</h3>
      {consents.data.length ? (
        <ul className="mt-2 space-y-1 text-sm text-slate-800">
          {consents.data.map((consent) => (
            <li key={`${consent.kind}-${String(consent.at)}-${consent.granted}`}>
              {formatGermanDateTime(new Date(consent.at))}: {CONSENT_KIND_LABELS[consent.kind as ConsentKind]}{" "}
              – {consent.granted ? "Einwilligung erteilt" : "Einwilligung widerrufen"}{" "}
              {CONSENT_SOURCE_LABELS[consent.source as ConsentSource]}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-700">Es sind keine Einwilligungen gespeichert.</p>
      )}
    </Card>
  );
}

/** Everything we keep about the visitor as one JSON file (DSGVO Art. 15 and 20). */
function DataDownload() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const data = await queryClient.fetchQuery({ ...trpc.account.export.queryOptions(), staleTime: 0 });
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = `meine-daten-${new Date().toISOString().slice(0, 10)}.json`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      await showError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card aria-labelledby="download-title">
      <CardTitle id="download-title">Meine Daten</CardTitle>
      <p className="text-slate-700">
        Laden Sie alle Daten herunter, die wir zu Ihrem Konto speichern: Profil, Anmeldungen, Bestellungen,
        freigeschaltete Pakete, Einwilligungen und die E-Mails, die wir Ihnen geschickt haben (JSON-Datei).
      </p>
      <Button className="mt-4" variant="secondary" onClick={() => void download()} disabled={busy}>
        <DownloadIcon aria-hidden="true" className="size-4" />
        {busy ? "Daten werden zusammengestellt …" : "Meine Daten herunterladen"}
      </Button>
    </Card>
  );
}

/** Deleting the account, after the password (DSGVO Art. 17). */
function DeleteAccount() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const form = useSchemaForm({
    // zod comes with the schema on the first submit
    schema: () => import("@app/shared/privacy-input").then((m) => m.ZDeleteAccountInput),
    defaultValues: { password: "" },
  });
  const remove = useMutation(trpc.account.delete.mutationOptions());
  const onSubmit = form.submit(async (input) => {
    try {
      const answer = await remove.mutateAsync(input);
      setOpen(false);
      signOutEverywhere();
      await navigate(loginPage());
      await alerts.successDialog(answer.title, answer.detail);
    } catch (failure) {
      // a wrong password is the field's refusal; anything else opens the error dialog
      if (errorBody(failure).detail !== MSG_PRIVACY.passwordWrong) {
        throw failure;
      }
      form.setError(
        "password",
        { type: "server", message: MSG_PRIVACY.passwordWrong },
        { shouldFocus: true },
      );
    }
  });
  return (
    <Card aria-labelledby="delete-title">
      <CardTitle id="delete-title">Konto löschen</CardTitle>
      <p className="text-slate-700">
        Ihr Konto, Ihre Anmeldungen, freigeschalteten Pakete und Einwilligungen werden gelöscht. Bestellungen
        müssen wir aus handels- und steuerrechtlichen Gründen aufbewahren; sie bleiben ohne Ihren Namen und
        Ihre E-Mail-Adresse erhalten.
      </p>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          form.reset();
        }}
      >
        <DialogTrigger asChild>
          <Button className="mt-4" variant="destructive">
            Konto löschen …
          </Button>
        </DialogTrigger>
        <DialogContent>
          <form onSubmit={onSubmit} noValidate>
            <DialogTitle>Konto endgültig löschen?</DialogTitle>
            <DialogDescription>
              Das lässt sich nicht rückgängig machen. Bitte bestätigen Sie mit Ihrem Passwort.
            </DialogDescription>
            <FormField label="Passwort" error={form.errorOf("password")} className="mt-4">
              <Input type="password" autoComplete="current-password" {...form.register("password")} />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                Abbrechen
              </Button>
              <Button type="submit" variant="destructive" disabled={form.submitting}>
                {form.submitting ? "Konto wird gelöscht …" : "Konto endgültig löschen"}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
