import { createFileRoute } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";

export const Route = createFileRoute("/datenschutz")({ component: Datenschutz });

function Datenschutz() {
  return (
    <Page title="Datenschutzerklärung">
      <div className="max-w-3xl space-y-4 text-slate-800">
        <p>
          Diese Seite enthält vorläufig einen Platzhalter. Die vollständige Datenschutzerklärung wird von den
          Betreibenden gepflegt und hier veröffentlicht.
        </p>
        <h2 className="text-xl font-semibold">Welche Daten wir verarbeiten</h2>
        <p>
          Für Ihr Konto speichern wir Vorname, Nachname, E-Mail-Adresse, Ihr Passwort (nur als sicherer Hash),
          Ihre Anmeldungen zu Veranstaltungen und Ihre Bestellungen. Die Zahlung wickelt unser
          Zahlungsdienstleister ab.
        </p>
        <h2 className="text-xl font-semibold">Videos</h2>
        <p>Videos werden erst nach Ihrem Klick vom Videoanbieter geladen.</p>
      </div>
    </Page>
  );
}
