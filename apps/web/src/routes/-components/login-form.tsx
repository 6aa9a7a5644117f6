import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { lazy, Suspense, useState } from "react";
import { useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, errorBody } from "@/lib/alerts";
import { session } from "@/lib/auth";
import { afterLoginTarget, returnAddress } from "@/lib/guards";
import { authSchema, serverFieldErrors, useSchemaForm } from "@/lib/schema-form";
import type { IssuedSession } from "@/lib/session/session-manager";
import { trpc } from "@/lib/trpc";

// only admins with two-factor login see the second step: it loads when the server asks for it
const TwoFactorStep = lazy(() => import("./two-factor-step").then((m) => ({ default: m.TwoFactorStep })));
// offered only after a refusal for too many attempts (ADR 0091)
const SignInLinkOffer = lazy(() =>
  import("./sign-in-link-offer").then((m) => ({ default: m.SignInLinkOffer })),
);

interface Props {
  congressId?: string | undefined;
  showVideo?: string | undefined;
  redirectTo?: string | undefined;
}

export function LoginForm({ congressId, showVideo, redirectTo }: Props) {
  const navigate = useNavigate();
  const form = useSchemaForm({
    schema: authSchema("ZLoginInput"),
    defaultValues: { email: "", password: "" },
  });
  // the sign-in-link offer sends the address the field holds now
  const email = useWatch({ control: form.control, name: "email" });
  const [failure, setFailure] = useState<{
    detail: string;
    unconfirmed: boolean;
    tooMany?: boolean;
  } | null>(null);
  /** set when the password was right and the account asks for its second factor */
  const [challenge, setChallenge] = useState<string | null>(null);
  const login = useMutation(trpc.auth.login.mutationOptions());
  const resend = useMutation(trpc.auth.resendConfirmation.mutationOptions());

  const signedIn = async (result: IssuedSession) => {
    session.signIn(result);
    await navigate({ href: afterLoginTarget({ congressId, showVideo }, redirectTo) });
  };

  const onSubmit = form.submit(async (input) => {
    setFailure(null);
    try {
      const result = await login.mutateAsync(input);
      if ("challenge" in result) {
        setChallenge(result.challenge);
        return;
      }
      await signedIn(result);
    } catch (error) {
      // a refused field goes under its field; a refused sign-in is shown inline (spec section 8)
      if (Object.keys(serverFieldErrors(error)).length > 0) {
        throw error;
      }
      const body = errorBody(error);
      const unconfirmed = error instanceof TRPCClientError && body.title === MSG.emailNotConfirmedTitle;
      const tooMany = error instanceof TRPCClientError && error.data?.httpStatus === 429;
      setFailure({ detail: body.detail, unconfirmed, tooMany });
    }
  });

  const onResend = async () => {
    const result = await resend
      .mutateAsync({ email: form.getValues("email"), redirect: returnAddress(redirectTo) })
      .catch(() => null);
    if (result) {
      alerts.success(result.detail);
    }
  };

  return (
    <Card aria-labelledby="login-title">
      <CardTitle id="login-title">Ich habe bereits ein Konto</CardTitle>
      {challenge ? (
        <Suspense fallback={<p role="status">Wird geladen …</p>}>
          <TwoFactorStep
            challenge={challenge}
            onSignedIn={signedIn}
            onRestart={(detail) => {
              setChallenge(null);
              form.setValue("password", "");
              setFailure(detail ? { detail, unconfirmed: false } : null);
            }}
          />
        </Suspense>
      ) : (
        /* Enter in any field submits the form */
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormField label="E-Mail" error={form.errorOf("email")}>
            <Input type="email" autoComplete="username" {...form.register("email")} />
          </FormField>
          <FormField label="Passwort" error={form.errorOf("password")}>
            <Input type="password" autoComplete="current-password" {...form.register("password")} />
          </FormField>
          {failure && (
            <Alert mode="error" role="alert">
              <p>{failure.detail}</p>
              {failure.unconfirmed && (
                <Button
                  variant="link"
                  size="inline"
                  onClick={onResend}
                  disabled={resend.isPending}
                  className="mt-1"
                >
                  Bestätigungs-E-Mail erneut senden
                </Button>
              )}
              {failure.tooMany && (
                <Suspense fallback={null}>
                  <SignInLinkOffer email={email} />
                </Suspense>
              )}
            </Alert>
          )}
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Button type="submit" disabled={form.submitting}>
              {form.submitting ? "Anmeldung läuft …" : "Anmelden"}
            </Button>
            <Link to="/forgot-password" className="text-sm text-brand-700 underline underline-offset-4">
              Passwort vergessen?
            </Link>
          </div>
        </form>
      )}
    </Card>
  );
}
