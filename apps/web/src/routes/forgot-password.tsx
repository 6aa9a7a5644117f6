import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { loginPage } from "@/lib/guards";
import { authSchema, useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

export const Route = createFileRoute("/forgot-password")({ component: ForgotPassword });

function ForgotPassword() {
  const form = useSchemaForm({ schema: authSchema("ZEmailInput"), defaultValues: { email: "" } });
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());

  const onSubmit = form.submit(async (input) => {
    const result = await request.mutateAsync(input);
    // deliberately the same answer whether or not the account exists
    await alerts.notice(MSG.forgotPasswordTitle, result.detail);
  });

  return (
    <Page title={MSG.forgotPasswordTitle} narrow>
      <Card>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-slate-700">
            Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir schicken Ihnen einen Link zum Zurücksetzen.
          </p>
          <FormField label="E-Mail" error={form.errorOf("email")}>
            <Input type="email" autoComplete="email" {...form.register("email")} />
          </FormField>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Button type="submit" disabled={form.submitting}>
              Passwort zurücksetzen
            </Button>
            <Link {...loginPage()} className="text-sm text-brand-700 underline underline-offset-4">
              Zurück zur Anmeldung
            </Link>
          </div>
        </form>
      </Card>
    </Page>
  );
}
