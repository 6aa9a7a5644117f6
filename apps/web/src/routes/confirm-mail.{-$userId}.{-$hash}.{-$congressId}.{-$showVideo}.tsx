import { MSG } from "@app/shared";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { alerts, errorBody } from "@/lib/alerts";
import { actsOnVisit } from "@/lib/route-loaders";
import { trpcClient } from "@/lib/trpc";

/** Confirms the address, shows the result in a dialog and always continues to login (spec section 2). */
export const Route = createFileRoute("/confirm-mail/{-$userId}/{-$hash}/{-$congressId}/{-$showVideo}")({
  // a link is confirmed when it is opened, never on a hover
  ...actsOnVisit,
  loader: async ({ params: { userId, hash, congressId, showVideo } }) => {
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
    throw redirect({
      to: "/login/{-$congressId}/{-$showVideo}",
      params: { congressId, showVideo },
      replace: true,
    });
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
