import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { createFileRoute, notFound, useNavigate } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
import { authSchema, useZodForm } from "@/lib/form";
import { INVALID_PARAM, parseId } from "@/lib/route-params";
import { trpc } from "@/lib/trpc";

export const Route = createFileRoute("/migration/set-password/$userId/$hash")({
  params: {
    parse: ({ userId, hash }: { userId: string; hash: string }) => {
      const id = parseId(userId);
      if (id === undefined) {
        throw notFound({ data: INVALID_PARAM });
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
  const form = useZodForm(authSchema("ZMigrationSetPasswordInput"), {
    userId,
    hash,
    password: "",
    passwordConfirm: "",
  });
  const save = useMutation(trpc.auth.migrationSetPassword.mutationOptions());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) {
      const { password, passwordConfirm } = form.values;
      if (passwordConfirm !== "" && password !== passwordConfirm && password.length >= 8) {
        // spec: a mismatch is reported in an error dialog
        await alerts.error({ title: MSG.defaultErrorTitle, detail: MSG.migrationPasswordsDoNotMatch });
      }
      return;
    }
    try {
      const result = await save.mutateAsync(input);
      await alerts.notice(MSG.migrationSuccessTitle, result.detail);
      await navigate({ to: "/login/{-$congressId}/{-$showVideo}" });
    } catch (error) {
      await showError(error);
    }
  };

  return (
    <Page title="Passwort festlegen" narrow>
      <Card>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-slate-700">
            Ihr Konto wurde auf unsere neue Plattform übertragen. Bitte legen Sie ein Passwort fest.
          </p>
          <FormField label="Passwort" error={form.errors.password} hint={MSG.passwordHint}>
            <Input
              type="password"
              autoComplete="new-password"
              value={form.values.password}
              onChange={(e) => form.set("password", e.target.value)}
            />
          </FormField>
          <FormField label="Passwort bestätigen" error={form.errors.passwordConfirm}>
            <Input
              type="password"
              autoComplete="new-password"
              value={form.values.passwordConfirm}
              onChange={(e) => form.set("passwordConfirm", e.target.value)}
            />
          </FormField>
          <Button type="submit" disabled={save.isPending}>
            Passwort speichern
          </Button>
        </form>
      </Card>
    </Page>
  );
}
