import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { createFileRoute, notFound, useNavigate } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { loginPage } from "@/lib/guards";
import { parseId } from "@/lib/route-params";
import { authSchema, useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

export const Route = createFileRoute("/migration/set-password/$userId/$hash")({
  params: {
    parse: ({ userId, hash }: { userId: string; hash: string }) => {
      const id = parseId(userId);
      if (id === undefined) {
        throw notFound();
      }
      return { userId: id, hash };
    },
    stringify: ({ userId, hash }: { userId: number; hash: string }) => ({ userId: String(userId), hash }),
  },
  component: MigrationSetPassword,
});

function MigrationSetPassword() {
  const { userId, hash } = Route.useParams();
  const navigate = useNavigate();
  const form = useSchemaForm({
    schema: authSchema("ZMigrationSetPasswordInput"),
    defaultValues: { password: "", passwordConfirm: "" },
    // the account and the link's hash come from the path, not from fields
    toInput: (values) => ({ ...values, userId, hash }),
  });
  const save = useMutation(trpc.auth.setMigrationPassword.mutationOptions());

  const submit = form.submit(async (input) => {
    const result = await save.mutateAsync(input);
    await alerts.successDialog(MSG.migrationSuccessTitle, result.detail);
    await navigate(loginPage());
  });
  const onSubmit = async (event: FormEvent) => {
    await submit(event);
    // spec: a mismatch is reported in an error dialog (and stays under the field)
    if (form.getFieldState("passwordConfirm").error?.message === MSG.migrationPasswordsDoNotMatch) {
      await alerts.error({ title: MSG.defaultErrorTitle, detail: MSG.migrationPasswordsDoNotMatch });
    }
  };

  return (
    <Page title="Passwort festlegen" narrow>
      <Card>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-slate-700">
            Ihr Konto wurde auf unsere neue Plattform übertragen. Bitte legen Sie ein Passwort fest.
          </p>
          <FormField label="Passwort" error={form.errorOf("password")} hint={MSG.passwordHint}>
            <Input type="password" autoComplete="new-password" {...form.register("password")} />
          </FormField>
          <FormField label="Passwort bestätigen" error={form.errorOf("passwordConfirm")}>
            <Input type="password" autoComplete="new-password" {...form.register("passwordConfirm")} />
          </FormField>
          <Button type="submit" disabled={form.submitting}>
            Passwort speichern
          </Button>
        </form>
      </Card>
    </Page>
  );
}
