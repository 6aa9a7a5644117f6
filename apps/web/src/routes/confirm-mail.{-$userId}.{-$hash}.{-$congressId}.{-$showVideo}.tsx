import { MSG } from "@app/shared";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { alerts, errorBody } from "@/lib/alerts";
import { loginAfterConfirmation } from "@/lib/guards";
import { actsOnVisit } from "@/lib/route-loaders";
import { optionalString } from "@/lib/search";
import { trpcClient } from "@/lib/trpc";

/**
 * Confirms the address, shows the result in a dialog and always continues to login (spec section 2), with
 * the guarded address the registration started from, which the link carries (`?redirect=`, ADR 0081).
 */
export const Route = createFileRoute("/confirm-mail/{-$userId}/{-$hash}/{-$congressId}/{-$showVideo}")({
  validateSearch: (search: Record<string, unknown>): { redirect?: string | undefined } => ({
    redirect: optionalString(search.redirect),
  }),
  loaderDeps: ({ search }) => ({ redirect: search.redirect }),
  // a link is confirmed when it is opened, never on a hover
  ...actsOnVisit,
  loader: async ({ params, deps }) => {
    const { userId, hash } = params;
    if (!userId || !hash) {
      await alerts.error({ title: MSG.confirmMailFailed, detail: MSG.confirmMailInvalid });
    } else {
      try {
        const result = await trpcClient.auth.confirmMail.mutate({ userId, hash });
        await alerts.notice(result.title, result.detail);
      } catch (error) {
        await alerts.error(errorBody(error));
      }
    }
    throw redirect(loginAfterConfirmation(params, deps.redirect));
  },
  pendingComponent: ConfirmMail,
  component: ConfirmMail,
});

function ConfirmMail() {
  return (
    <Page title="E-Mail-Adresse bestätigen">
      <p role="status" className="text-slate-700">
        Ihre E-Mail-Adresse wird bestätigt …
      </p>
    </Page>
  );
}
