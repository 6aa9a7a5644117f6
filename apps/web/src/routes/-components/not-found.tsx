import { MSG } from "@app/shared";
import { Link } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";

/**
 * The 404 page (spec section 2: the searched page was not found), inside the layout. An unknown path reaches
 * it through `routes/$.tsx`, which first asks whether the path is one of the password-gated pages.
 */
export function NotFound() {
  return (
    <Page title={MSG.pageNotFoundTitle}>
      <p className="mb-2 text-slate-700">{MSG.pageNotFoundDetail}</p>
      <p className="mb-6 text-slate-700">
        Bitte prüfen Sie die Adresse oder wählen Sie eine Veranstaltung in der Übersicht.
      </p>
      <Button asChild variant="secondary">
        <Link to="/">Zurück zur Übersicht</Link>
      </Button>
    </Page>
  );
}
