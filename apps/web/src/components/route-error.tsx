import { MSG } from "@app/shared";
import { type ErrorComponentProps, Link, useLocation, useNavigate, useRouter } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { Page } from "@/components/layout/page";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { alerts, errorBody, isUnauthorized, requestIdOf } from "@/lib/alerts";
import { session } from "@/lib/auth";
import { loginPage } from "@/lib/guards";

/**
 * A refused session (it ended elsewhere: a password reset, a two-factor switch, the account switched off) is
 * renewed once and the failed page loads again; when that fails too, the visitor signs in again and comes
 * back here. True while that runs: the error is not the page's to show.
 */
export function useSessionRenewal(error: unknown, reset: () => void): boolean {
  const router = useRouter();
  const navigate = useNavigate();
  // the page that failed; the effect runs once, whatever the location becomes meanwhile
  const from = useRef(useLocation().href).current;
  const started = useRef(false);
  const signedOut = isUnauthorized(error);

  useEffect(() => {
    if (!signedOut || started.current) {
      return;
    }
    started.current = true;
    void session.restore().then(async (token) => {
      if (token) {
        reset();
        await router.invalidate();
        return;
      }
      await navigate({ ...loginPage(from), replace: true });
      void alerts.notice(MSG.unauthorizedTitle, MSG.sessionExpired);
    });
  }, [signedOut, reset, router, navigate, from]);
  return signedOut;
}

/**
 * What a page shows when its loader or component fails: inside the layout, the server's German
 * `{title, detail}` (what happened), what to do, a way back to the overview and the request id for support;
 * never a stack trace. A refused session is renewed first (`useSessionRenewal`).
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  if (useSessionRenewal(error, reset)) {
    return null;
  }
  const { title, detail } = errorBody(error);
  return (
    <Page title={title}>
      <Alert mode="error" role="alert" className="mb-4 max-w-3xl">
        <p>{detail}</p>
      </Alert>
      <p className="mb-2 max-w-3xl text-slate-700">{MSG.supportContact}</p>
      <RequestId error={error} />
      <div className="mt-6 flex flex-wrap items-center gap-3">
        <Button
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          Erneut versuchen
        </Button>
        <Button asChild variant="secondary">
          <Link to="/">Zurück zur Übersicht</Link>
        </Button>
      </div>
    </Page>
  );
}

/** The request id of a failed call (the API's `x-request-id`), for support. */
export function RequestId({ error }: { error: unknown }) {
  const requestId = requestIdOf(error);
  return requestId ? (
    <p className="mb-4 max-w-3xl text-sm text-slate-700">
      Bitte nennen Sie dem Support diese Vorgangsnummer:{" "}
      <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 text-slate-900">{requestId}</code>
    </p>
  ) : null;
}
