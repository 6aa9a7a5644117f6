import { TWO_FACTOR_MSG } from "@app/shared/two-factor";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorBody } from "@/lib/alerts";
import type { IssuedSession } from "@/lib/session/session-manager";
import { trpc } from "@/lib/trpc";

interface Props {
  challenge: string;
  onSignedIn: (session: IssuedSession) => Promise<void>;
  /** back to e-mail and password, with the reason when the challenge has expired */
  onRestart: (detail?: string) => void;
}

/** The second step of an admin's login: a code of the authenticator app or a recovery code. */
export function TwoFactorStep({ challenge, onSignedIn, onRestart }: Props) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const verify = useMutation(trpc.auth.loginTwoFactor.mutationOptions());

  // the field takes the focus when the step appears and when the kind of code changes
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when the kind of code changes
  useEffect(() => {
    input.current?.focus();
  }, [recovery]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(TWO_FACTOR_MSG.codeRequired);
      return;
    }
    setError(null);
    try {
      await onSignedIn(await verify.mutateAsync({ challenge, code }));
    } catch (failure) {
      const { detail } = errorBody(failure);
      if (detail === TWO_FACTOR_MSG.challengeExpired) {
        onRestart(detail);
        return;
      }
      setError(detail);
      setCode("");
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        Ihr Konto ist mit einer Zwei-Faktor-Anmeldung geschützt.{" "}
        {recovery
          ? "Geben Sie einen Ihrer Wiederherstellungscodes ein. Jeder Code gilt nur einmal."
          : "Geben Sie den sechsstelligen Code ein, den Ihre Authentifizierungs-App gerade anzeigt."}
      </p>
      <FormField
        label={recovery ? "Wiederherstellungscode" : "Bestätigungscode aus Ihrer Authentifizierungs-App"}
      >
        <Input
          ref={input}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputMode={recovery ? "text" : "numeric"}
          maxLength={40}
          spellCheck={false}
        />
      </FormField>
      {error && (
        <Alert mode="error" role="alert">
          <p>{error}</p>
        </Alert>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button type="submit" disabled={verify.isPending}>
          {verify.isPending ? "Anmeldung läuft …" : "Bestätigen"}
        </Button>
        <Button
          variant="link"
          size="inline"
          onClick={() => {
            setRecovery(!recovery);
            setCode("");
            setError(null);
          }}
        >
          {recovery ? "Code aus der App verwenden" : "Wiederherstellungscode verwenden"}
        </Button>
      </div>
      <Button variant="link" size="inline" className="self-start" onClick={() => onRestart()}>
        Zurück zur Anmeldung
      </Button>
    </form>
  );
}
