import { type ReactNode, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorBody } from "@/lib/alerts";
import { serverFieldErrors, useSchemaForm } from "@/lib/schema-form";

// zod comes with the schema when the form is first submitted (the login's second step loads without it)
const codeSchema = () => import("@app/shared/two-factor-input").then((m) => m.ZTwoFactorCodeInput);

interface CodeFormProps {
  label: string;
  submitLabel: string;
  hint?: string;
  /** checks the code; a refusal shows under the field, which is emptied for the next try */
  onCode: (code: string) => Promise<void>;
  pending: boolean;
  /** "Abbrechen" beside the submit button (the admin's dialogs) */
  onCancel?: () => void;
  /** digits of the authenticator app, or text (a recovery code) */
  inputMode?: "numeric" | "text";
  /** the field takes the focus when the form appears */
  autoFocus?: boolean;
  /** further buttons beside the submit button (the login's switch to a recovery code) */
  actions?: ReactNode;
}

/**
 * The one form for a two-factor code: the login's second step and the admin's setup, renewal and
 * switch-off dialogs. Checked with the shared `ZTwoFactorCodeInput`; the server's German refusal lands under
 * the field (announced, the field focused).
 */
export function CodeForm({
  label,
  submitLabel,
  hint,
  onCode,
  pending,
  onCancel,
  inputMode,
  autoFocus = false,
  actions,
}: CodeFormProps) {
  const form = useSchemaForm({ schema: codeSchema, defaultValues: { code: "" } });
  const { setFocus } = form;

  useEffect(() => {
    if (autoFocus) {
      setFocus("code");
    }
  }, [autoFocus, setFocus]);

  const onSubmit = form.submit(async ({ code }) => {
    try {
      await onCode(code);
    } catch (error) {
      if (Object.keys(serverFieldErrors(error)).length > 0) {
        throw error;
      }
      form.setValue("code", "");
      form.setError("code", { type: "server", message: errorBody(error).detail }, { shouldFocus: true });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <FormField label={label} error={form.errorOf("code")} {...(hint && { hint })}>
        <Input
          autoComplete="one-time-code"
          inputMode={inputMode}
          maxLength={40}
          spellCheck={false}
          {...form.register("code")}
        />
      </FormField>
      <div className={`flex flex-wrap items-center gap-3 ${onCancel ? "justify-end" : "justify-between"}`}>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Abbrechen
          </Button>
        )}
        <Button type="submit" disabled={pending || form.submitting}>
          {submitLabel}
        </Button>
        {actions}
      </div>
    </form>
  );
}
