import { MSG } from "@app/shared";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { Page } from "@/components/layout/page";
import { alerts, errorBody } from "@/lib/alerts";
import { trpcClient } from "@/lib/trpc";

export const Route = createFileRoute("/confirm-mail/{-$userId}/{-$hash}/{-$congressId}/{-$showVideo}")({
  component: ConfirmMail,
});

/** Confirms the address, shows the result in a dialog and always continues to login (spec section 2). */
function ConfirmMail() {
  const { userId, hash, congressId, showVideo } = Route.useParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    const toLogin = () =>
      navigate({
        to: "/login/{-$congressId}/{-$showVideo}",
        params: { congressId, showVideo },
        replace: true,
      });
    const run = async () => {
      if (!userId || !hash) {
        await alerts.error({ title: MSG.confirmMailFailed, detail: MSG.confirmMailInvalid });
        return toLogin();
      }
      try {
        const result = await trpcClient.auth.confirmMail.mutate({ userId, hash });
        await alerts.notice(result.title, result.detail);
      } catch (error) {
        await alerts.error(errorBody(error));
      }
      return toLogin();
    };
    void run();
  }, [userId, hash, congressId, showVideo, navigate]);

  return (
    <Page title="E-Mail-Adresse bestätigen">
      <p role="status" className="text-slate-700">
        Ihre E-Mail-Adresse wird bestätigt …
      </p>
    </Page>
  );
}
