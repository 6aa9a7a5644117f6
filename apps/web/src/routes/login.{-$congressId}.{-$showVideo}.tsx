import { createFileRoute, redirect } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { afterLoginTarget } from "@/lib/guards";
import { optionalString } from "@/lib/search";
import { LoginForm } from "./-components/login-form";
import { RegisterForm } from "./-components/register-form";

export const Route = createFileRoute("/login/{-$congressId}/{-$showVideo}")({
  validateSearch: (search: Record<string, unknown>): { redirect?: string | undefined } => ({
    redirect: optionalString(search.redirect),
  }),
  // an already logged-in visitor goes where a login would take them
  beforeLoad: ({ context, params, search }) => {
    if (context.auth.getState().user) {
      throw redirect({ href: afterLoginTarget(params, search.redirect) });
    }
  },
  component: LoginPage,
});

function LoginPage() {
  const params = Route.useParams();
  const search = Route.useSearch();
  return (
    <Page title="Anmelden">
      <p className="mb-6 max-w-3xl text-slate-700">
        Um sich für eine Veranstaltung anzumelden, benötigen Sie ein Konto. Melden Sie sich an oder
        registrieren Sie sich kostenlos.
      </p>
      <div className="grid gap-6 md:grid-cols-2">
        <LoginForm congressId={params.congressId} showVideo={params.showVideo} redirectTo={search.redirect} />
        <RegisterForm
          congressId={params.congressId}
          showVideo={params.showVideo}
          redirectTo={search.redirect}
        />
      </div>
    </Page>
  );
}
