import { TWO_FACTOR_MSG } from "@app/shared/two-factor";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorBody } from "@/lib/alerts";

/**
 * A one-field form for a code of the authenticator app, with "Abbrechen" beside the submit button; shows the
 * server's German refusal below it.
 */
export function CodeForm({
  label,
  submitLabel,
  hint,
  onCode,
  pending,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  hint?: string;
  onCode: (code: string) => Promise<void>;
  pending: boolean;
  onCancel: () => void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(TWO_FACTOR_MSG.codeRequired);
      return;
    }
    setError(null);
    try {
      await onCode(code);
    } catch (failure) {
      setError(errorBody(failure).detail);
      setCode("");
    }
  };
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <FormField label={label} {...(hint && { hint })}>
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          maxLength={40}
          spellCheck={false}
        />
      </FormField>
      {error && (
        <Alert mode="error" role="alert">
          <p>{error}</p>
        </Alert>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          Abbrechen
        </Button>
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
