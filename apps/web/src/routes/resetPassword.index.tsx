import { createFileRoute, redirect } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { RESET_TOKEN_KEY } from "@/lib/reset-token";
import { NewPasswordForm } from "./-components/new-password-form";

export const Route = createFileRoute("/resetPassword/")({
  beforeLoad: () => {
    if (!sessionStorage.getItem(RESET_TOKEN_KEY)) {
      throw redirect({ to: "/forgot-password", replace: true });
    }
  },
  component: () => (
    <Page title="Neues Passwort festlegen" narrow>
      <NewPasswordForm />
    </Page>
  ),
});
