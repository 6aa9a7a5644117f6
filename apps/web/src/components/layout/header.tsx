import { Link, useNavigate, useRouterState } from "@tanstack/react-router";
import { hasRole, logout, useSession } from "@/lib/auth";
import { loginPage } from "@/lib/guards";
import { queryClient } from "@/lib/trpc";
import { Button } from "../ui/button";
import { ProductLogo, PublisherLogos } from "./logos";
import { LayoutDashboardIcon, LogOutIcon, UserIcon } from "./shell-icons";

/** Header with logos and the actions of spec section 1. */
export function Header() {
  const state = useSession();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const loggedIn = state.user !== null;
  const showProfile = loggedIn && pathname !== "/profile" && !pathname.startsWith("/congress-package/");

  const onLogout = async () => {
    await logout();
    queryClient.clear();
    // always /login itself: from /participation/8 the next login must not sign anybody up
    await navigate(loginPage());
  };

  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="rounded" aria-label="Kongress-Plattform, zur Startseite">
          <ProductLogo />
        </Link>
        <PublisherLogos />
        {loggedIn && (
          <nav aria-label="Benutzermenü" className="flex flex-wrap items-center gap-2">
            {pathname !== "/" && (
              <Button asChild variant="ghost" size="sm">
                <Link to="/">Zur Übersicht</Link>
              </Button>
            )}
            {hasRole(state, "ROLE_ADMIN") && (
              <Button asChild variant="ghost" size="sm">
                <Link to="/admin/manage">
                  <LayoutDashboardIcon aria-hidden="true" className="size-4" />
                  Administration
                </Link>
              </Button>
            )}
            {showProfile && (
              <Button asChild variant="ghost" size="sm">
                <Link to="/profile">
                  <UserIcon aria-hidden="true" className="size-4" />
                  Profil
                </Link>
              </Button>
            )}
            <Button variant="secondary" size="sm" onClick={onLogout}>
              <LogOutIcon aria-hidden="true" className="size-4" />
              Abmelden
            </Button>
          </nav>
        )}
      </div>
    </header>
  );
}
