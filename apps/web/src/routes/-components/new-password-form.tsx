import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
import { authSchema, useZodForm } from "@/lib/form";
import { trpc } from "@/lib/trpc";

/** sessionStorage key of a validated reset token (spec section 4, password reset). */
export const RESET_TOKEN_KEY = "resetPasswordToken";

export function NewPasswordForm() {
  const navigate = useNavigate();
  const token = sessionStorage.getItem(RESET_TOKEN_KEY) ?? "";
  const form = useZodForm(authSchema("ZResetPasswordInput"), { token, password: "", passwordConfirm: "" });
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const input = await form.validate();
    if (!input) {
      return;
    }
    try {
      const result = await reset.mutateAsync(input);
      sessionStorage.removeItem(RESET_TOKEN_KEY);
      await alerts.notice(MSG.resetPasswordSuccessTitle, result.detail);
      await navigate({ to: "/login/{-$congressId}/{-$showVideo}" });
    } catch (error) {
      sessionStorage.removeItem(RESET_TOKEN_KEY);
      await showError(error);
      await navigate({ to: "/forgot-password" });
    }
  };

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField label="Neues Passwort" error={form.errors.password} hint={MSG.passwordHint}>
          <Input
            type="password"
            autoComplete="new-password"
            value={form.values.password}
            onChange={(e) => form.set("password", e.target.value)}
          />
        </FormField>
        <FormField label="Neues Passwort bestätigen" error={form.errors.passwordConfirm}>
          <Input
            type="password"
            autoComplete="new-password"
            value={form.values.passwordConfirm}
            onChange={(e) => form.set("passwordConfirm", e.target.value)}
          />
        </FormField>
        <Button type="submit" disabled={reset.isPending}>
          Passwort speichern
        </Button>
      </form>
    </Card>
  );
}
