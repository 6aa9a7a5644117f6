import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import { Page } from "@/components/layout/page";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { errorBody } from "@/lib/alerts";
import { session } from "@/lib/auth";
import { loginPage } from "@/lib/guards";
import type { IssuedSession } from "@/lib/session/session-manager";
import { trpc } from "@/lib/trpc";

const TwoFactorStep = lazy(() =>
  import("./-components/two-factor-step").then((m) => ({ default: m.TwoFactorStep })),
);

/**
 * The one-time sign-in link from the mail (ADR 0091). It signs in only on a click, so a mail scanner
 * that opens the link does not spend it; an account with two-factor login then asks for its code.
 */
export const Route = createFileRoute("/login-link/$token")({ component: SignInWithLink });

function SignInWithLink() {
  const { token } = Route.useParams();
  const navigate = useNavigate();
  const redeem = useMutation(trpc.auth.signInWithLink.mutationOptions());
  const [challenge, setChallenge] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const signedIn = async (result: IssuedSession) => {
    session.signIn(result);
    await navigate({ to: "/" });
  };

  const onSignIn = async () => {
    setFailure(null);
    try {
      const result = await redeem.mutateAsync({ token });
      if ("challenge" in result) {
        setChallenge(result.challenge);
        return;
      }
      await signedIn(result);
    } catch (error) {
      setFailure(errorBody(error).detail);
    }
  };

  return (
    <Page title="Anmeldung per E-Mail-Link" narrow>
      <Card>
        {challenge ? (
          <Suspense fallback={<p role="status">Wird geladen …</p>}>
            <TwoFactorStep
              challenge={challenge}
              onSignedIn={signedIn}
              onRestart={(detail) => {
                setChallenge(null);
                setFailure(detail ?? MSG.signInLinkInvalid);
              }}
            />
          </Suspense>
        ) : (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-slate-700">
              Mit diesem Link melden Sie sich in diesem Browser an, ohne Passwort. Der Link gilt einmal; der
              Browser gilt danach als bekanntes Gerät Ihres Kontos.
            </p>
            {failure && (
              <Alert mode="error" role="alert">
                <p>{failure}</p>
              </Alert>
            )}
            <div className="flex flex-wrap items-center justify-between gap-3">
              <Button onClick={onSignIn} disabled={redeem.isPending}>
                {redeem.isPending ? "Anmeldung läuft …" : "Jetzt anmelden"}
              </Button>
              <Link {...loginPage()} className="text-sm text-brand-700 underline underline-offset-4">
                Zur Anmeldung
              </Link>
            </div>
          </div>
        )}
      </Card>
    </Page>
  );
}
