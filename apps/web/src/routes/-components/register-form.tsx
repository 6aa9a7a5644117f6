import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { authSchema, useLoginPageForm } from "@/lib/form";
import { trpc } from "@/lib/trpc";

interface Props {
  congressId?: string | undefined;
  showVideo?: string | undefined;
}

const EMPTY = {
  firstname: "",
  lastname: "",
  email: "",
  password: "",
  dataProtection: false,
  newsletter: false,
};

export function RegisterForm({ congressId, showVideo }: Props) {
  const form = useLoginPageForm(authSchema("ZRegisterInput"), EMPTY);
  const register = useMutation(trpc.auth.register.mutationOptions());
  const values = form.values;

  // a refused field lands under it, any other refusal in the error dialog
  const onSubmit = form.submit(async (input) => {
    const result = await register.mutateAsync({
      ...input,
      congressId: congressId ? Number(congressId) : undefined,
      showVideo: showVideo ? true : undefined,
    });
    await alerts.notice(result.title, result.detail);
    // the spec reloads the page after the dialog: an empty form for the next visitor
    window.location.reload();
  });

  const field = (key: "firstname" | "lastname" | "email" | "password") => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => form.set(key, e.target.value),
  });

  return (
    <Card aria-labelledby="register-title">
      <CardTitle id="register-title">Neu hier? Registrieren</CardTitle>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Vorname" error={form.errors.firstname}>
            <Input autoComplete="given-name" {...field("firstname")} />
          </FormField>
          <FormField label="Nachname" error={form.errors.lastname}>
            <Input autoComplete="family-name" {...field("lastname")} />
          </FormField>
        </div>
        <FormField label="E-Mail" error={form.errors.email}>
          <Input type="email" autoComplete="email" {...field("email")} />
        </FormField>
        <FormField label="Passwort" error={form.errors.password} hint={MSG.passwordHint}>
          <Input type="password" autoComplete="new-password" {...field("password")} />
        </FormField>
        <CheckboxField
          id="register-data-protection"
          checked={values.dataProtection}
          onChange={(checked) => form.set("dataProtection", checked)}
          error={form.errors.dataProtection}
        >
          Ich habe die{" "}
          <a href="/datenschutz" target="_blank" rel="noopener" className="text-brand-700 underline">
            Datenschutzerklärung
            <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
          </a>{" "}
          zur Kenntnis genommen.
        </CheckboxField>
        <CheckboxField
          id="register-newsletter"
          checked={values.newsletter}
          onChange={(checked) => form.set("newsletter", checked)}
        >
          Ich möchte den Newsletter erhalten (optional, jederzeit abbestellbar).
        </CheckboxField>
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? "Registrierung läuft …" : "Registrieren"}
        </Button>
      </form>
    </Card>
  );
}

function CheckboxField(props: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
  children: ReactNode;
}) {
  const errorId = props.error ? `${props.id}-error` : undefined;
  return (
    <div>
      <div className="flex items-start gap-2">
        <Checkbox
          id={props.id}
          checked={props.checked}
          onCheckedChange={props.onChange}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={errorId}
        />
        <label htmlFor={props.id} className="text-sm text-slate-800">
          {props.children}
        </label>
      </div>
      {props.error && (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      )}
    </div>
  );
}
