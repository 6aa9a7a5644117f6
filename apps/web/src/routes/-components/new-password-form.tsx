import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, showError } from "@/lib/alerts";
import { loginPage } from "@/lib/guards";
import { RESET_TOKEN_KEY } from "@/lib/reset-token";
import { authSchema, serverFieldErrors, useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

export function NewPasswordForm() {
  const navigate = useNavigate();
  const form = useSchemaForm({
    schema: authSchema("ZResetPasswordInput"),
    defaultValues: { password: "", passwordConfirm: "" },
    // the token the mailed link's route kept; not a field of the form
    toInput: (values) => ({ ...values, token: sessionStorage.getItem(RESET_TOKEN_KEY) ?? "" }),
  });
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());

  const onSubmit = form.submit(async (input) => {
    try {
      const result = await reset.mutateAsync(input);
      sessionStorage.removeItem(RESET_TOKEN_KEY);
      await alerts.successDialog(MSG.resetPasswordSuccessTitle, result.detail);
      await navigate(loginPage());
    } catch (error) {
      // a refused password goes under its field and the link stays usable
      if (Object.keys(serverFieldErrors(error)).some((key) => key !== "token")) {
        throw error;
      }
      sessionStorage.removeItem(RESET_TOKEN_KEY);
      await showError(error);
      await navigate({ to: "/forgot-password" });
    }
  });

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField label="Neues Passwort" error={form.errorOf("password")} hint={MSG.passwordHint}>
          <Input type="password" autoComplete="new-password" {...form.register("password")} />
        </FormField>
        <FormField label="Neues Passwort bestätigen" error={form.errorOf("passwordConfirm")}>
          <Input type="password" autoComplete="new-password" {...form.register("passwordConfirm")} />
        </FormField>
        <Button type="submit" disabled={form.submitting}>
          Passwort speichern
        </Button>
      </form>
    </Card>
  );
}
