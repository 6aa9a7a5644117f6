import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import type { ComponentProps, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts } from "@/lib/alerts";
import { returnAddress } from "@/lib/guards";
import { authSchema, useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

interface Props {
  congressId?: string | undefined;
  showVideo?: string | undefined;
  /** the guarded address the login page returns to: the confirmation link carries it to the first login */
  redirectTo?: string | undefined;
}

const EMPTY = {
  firstname: "",
  lastname: "",
  email: "",
  password: "",
  dataProtection: false,
  newsletter: false,
};

export function RegisterForm({ congressId, showVideo, redirectTo }: Props) {
  const form = useSchemaForm({ schema: authSchema("ZRegisterInput"), defaultValues: EMPTY });
  const register = useMutation(trpc.auth.register.mutationOptions());

  // a refused field lands under it, any other refusal in the error dialog
  const onSubmit = form.submit(async (input) => {
    const result = await register.mutateAsync({
      ...input,
      congressId: congressId ? Number(congressId) : undefined,
      showVideo: showVideo ? true : undefined,
      // an address from outside (a crafted login link) is dropped here as the login drops it; the server
      // would refuse it
      redirect: returnAddress(redirectTo),
    });
    await alerts.notice(result.title, result.detail);
    // the spec reloads the page after the dialog: an empty form for the next visitor
    window.location.reload();
  });

  return (
    <Card aria-labelledby="register-title">
      <CardTitle id="register-title">Neu hier? Registrieren</CardTitle>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Vorname" error={form.errorOf("firstname")}>
            <Input autoComplete="given-name" {...form.register("firstname")} />
          </FormField>
          <FormField label="Nachname" error={form.errorOf("lastname")}>
            <Input autoComplete="family-name" {...form.register("lastname")} />
          </FormField>
        </div>
        <FormField label="E-Mail" error={form.errorOf("email")}>
          <Input type="email" autoComplete="email" {...form.register("email")} />
        </FormField>
        <FormField label="Passwort" error={form.errorOf("password")} hint={MSG.passwordHint}>
          <Input type="password" autoComplete="new-password" {...form.register("password")} />
        </FormField>
        <CheckboxField
          id="register-data-protection"
          {...form.register("dataProtection")}
          error={form.errorOf("dataProtection")}
        >
          Ich habe die{" "}
          <a href="/datenschutz" target="_blank" rel="noopener" className="text-brand-700 underline">
            Datenschutzerklärung
            <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
          </a>{" "}
          zur Kenntnis genommen.
        </CheckboxField>
        <CheckboxField id="register-newsletter" {...form.register("newsletter")}>
          Ich möchte den Newsletter erhalten (optional, jederzeit abbestellbar).
        </CheckboxField>
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? "Registrierung läuft …" : "Registrieren"}
        </Button>
      </form>
    </Card>
  );
}

/** A checkbox of the form (`register`'s props) with its label beside it and its message below. */
function CheckboxField({
  id,
  error,
  children,
  ...checkbox
}: Omit<ComponentProps<typeof Checkbox>, "children"> & {
  id: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div>
      <div className="flex items-start gap-2">
        <Checkbox id={id} {...checkbox} aria-invalid={error ? true : undefined} aria-describedby={errorId} />
        <label htmlFor={id} className="text-sm text-slate-800">
          {children}
        </label>
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
