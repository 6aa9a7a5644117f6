import { TWO_FACTOR_MSG } from "@app/shared/two-factor";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { CodeForm } from "@/components/code-form";
import { Button } from "@/components/ui/button";
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
  const verify = useMutation(trpc.auth.loginTwoFactor.mutationOptions());

  const onCode = async (code: string) => {
    try {
      await onSignedIn(await verify.mutateAsync({ challenge, code }));
    } catch (failure) {
      const { detail } = errorBody(failure);
      if (detail !== TWO_FACTOR_MSG.challengeExpired) {
        throw failure;
      }
      onRestart(detail);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        Ihr Konto ist mit einer Zwei-Faktor-Anmeldung geschützt.{" "}
        {recovery
          ? "Geben Sie einen Ihrer Wiederherstellungscodes ein. Jeder Code gilt nur einmal."
          : "Geben Sie den sechsstelligen Code ein, den Ihre Authentifizierungs-App gerade anzeigt."}
      </p>
      {/* a new form per kind of code: empty, without the last refusal, and focused */}
      <CodeForm
        key={recovery ? "recovery" : "app"}
        label={recovery ? "Wiederherstellungscode" : "Bestätigungscode aus Ihrer Authentifizierungs-App"}
        submitLabel={verify.isPending ? "Anmeldung läuft …" : "Bestätigen"}
        onCode={onCode}
        pending={verify.isPending}
        inputMode={recovery ? "text" : "numeric"}
        autoFocus
        actions={
          <Button variant="link" size="inline" onClick={() => setRecovery(!recovery)}>
            {recovery ? "Code aus der App verwenden" : "Wiederherstellungscode verwenden"}
          </Button>
        }
      />
      <Button variant="link" size="inline" className="self-start" onClick={() => onRestart()}>
        Zurück zur Anmeldung
      </Button>
    </div>
  );
}
