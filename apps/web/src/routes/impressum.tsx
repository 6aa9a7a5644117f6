import { createFileRoute } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";

export const Route = createFileRoute("/impressum")({ component: Impressum });

function Impressum() {
  return (
    <Page title="Impressum">
      <div className="max-w-3xl space-y-2 text-slate-800">
        <p>Angaben gemäß § 5 DDG (Platzhalter, wird von den Betreibenden ergänzt):</p>
        <address className="not-italic">
          Kongress-Plattform GmbH
          <br />
          Musterstraße 1
          <br />
          12345 Musterstadt
        </address>
        <p>E-Mail: kontakt@example.com</p>
      </div>
    </Page>
  );
}
