import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { CopyIcon } from "lucide-react";
import { useState } from "react";
import { LazySectionError } from "@/components/lazy-route-error";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { optionsOf, Select } from "@/components/ui/select";
import { alerts } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";

const HINTS = [
  "Eine Veranstaltung erscheint in der Übersicht nur, wenn „Sichtbar“ gesetzt ist und sie läuft oder noch bevorsteht.",
  "Eine Checkout-ID größer als 0 macht die Veranstaltung kostenpflichtig: Teilnahmen entstehen dann nur durch bezahlte Tickets.",
  "Videos eines Tages mit exklusivem Datum (TT.MM.JJJJ) erscheinen erst ab diesem Tag; Tage ohne Datum während der ganzen Veranstaltung.",
  "Bestellungen mit der Nummer FAKE-ORDER legt das Team an; sie gehen nicht an Digistore24, geben aber denselben Zugang.",
  "Eine Vorlage einer Veranstaltung hat Vorrang vor der allgemeinen Vorlage gleichen Namens.",
];

const FAQ = [
  {
    q: "Warum kann ich eine Veranstaltung nicht löschen?",
    a: "Solange Ticket- oder Paketbestellungen zu ihr bestehen, bleibt sie erhalten. Stornierte Bestellungen zählen auch.",
  },
  {
    q: "Eine Käuferin sieht ihr Paket nicht.",
    a: "Prüfen Sie unter „Paketbestellungen“ den Status: nur „bezahlt“ schaltet frei. Ein „Verfügbar ab“-Datum in der Zukunft hält das Paket bis dahin geschlossen.",
  },
  {
    q: "Wann geht die Mail „Veranstaltungstag“ hinaus?",
    a: "An jedem Veranstaltungstag um 0:00 Uhr (Berliner Zeit) an alle Teilnehmenden sichtbarer Veranstaltungen, genau einmal pro Tag.",
  },
];

const DEPENDENCIES: [string, string][] = [
  ["Kongresspaket", "Veranstaltung"],
  ["Videoinhalt", "Veranstaltung"],
  ["Teilnahme", "Veranstaltung + Benutzer:in"],
  ["Ticketbestellung", "Veranstaltung + Benutzer:in"],
  ["Paketbestellung", "Kongresspaket + Benutzer:in"],
  ["E-Mail-Template", "Veranstaltung (oder allgemein)"],
];

function DependencyDiagram() {
  return (
    <figure>
      <svg viewBox="0 0 560 250" role="img" aria-labelledby="deps-title" className="w-full max-w-2xl">
        <title id="deps-title">Welche Daten von welchen abhängen</title>
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" fill="#334155" />
          </marker>
        </defs>
        {[
          [200, 10, "Veranstaltung"],
          [20, 110, "Kongresspaket"],
          [200, 110, "Videoinhalt"],
          [380, 110, "E-Mail-Template"],
          [20, 200, "Paketbestellung"],
          [200, 200, "Teilnahme / Ticket"],
          [380, 200, "Benutzer:in"],
        ].map(([x, y, label]) => (
          <g key={label as string}>
            <rect x={x} y={y} width="160" height="36" rx="6" fill="#eef2ff" stroke="#1e3a8a" />
            <text
              x={(x as number) + 80}
              y={(y as number) + 23}
              textAnchor="middle"
              fontSize="13"
              fill="#0f172a"
            >
              {label}
            </text>
          </g>
        ))}
        {[
          [100, 110, 250, 46],
          [280, 110, 280, 46],
          [460, 110, 310, 46],
          [100, 200, 100, 146],
          [280, 200, 280, 46],
          [360, 218, 380, 218],
          [180, 218, 380, 228],
        ].map(([x1, y1, x2, y2]) => (
          <line
            key={`${x1}-${y1}-${x2}-${y2}`}
            x1={x1}
            y1={y1}
            x2={x2}
            y2={y2}
            stroke="#334155"
            markerEnd="url(#arrow)"
          />
        ))}
      </svg>
      <figcaption className="mt-2 text-sm text-slate-700">
        Pfeile zeigen auf das, was vorher da sein muss:
        <ul className="mt-1 list-disc pl-5">
          {DEPENDENCIES.map(([what, needs]) => (
            <li key={what}>
              {what} braucht {needs}.
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

function UrlBuilder() {
  const congresses = useQuery(trpc.admin.congresses.list.queryOptions());
  const packages = useQuery(trpc.admin.packages.list.queryOptions());
  const [congress, setCongress] = useState("");
  const [pkg, setPkg] = useState("");
  const origin = window.location.origin;
  const links = [
    ...(pkg
      ? [
          ["Paketseite", `/congress-package/${pkg}`],
          ["Paket kaufen", `/congress-package-purchase/${pkg}`],
        ]
      : []),
    ...(congress
      ? [
          ["Videos der Veranstaltung", `/congress/${congress}`],
          ["Anmeldung (kostenlos)", `/participation/${congress}`],
          ["Ticket kaufen", `/congress-ticket-purchase/${congress}`],
          ["Ticket + Paket kaufen", `/congress-ticket-package-purchase/${congress}`],
          ["Login mit Anmeldung", `/login/${congress}`],
          ["Login direkt zu den Videos", `/login/${congress}/1`],
        ]
      : []),
  ];
  const choices = [
    {
      label: "Kongresspaket für Links",
      value: pkg,
      set: setPkg,
      options: optionsOf(packages.data, (p) => p.name),
    },
    {
      label: "Veranstaltung für Links",
      value: congress,
      set: setCongress,
      options: optionsOf(congresses.data, (c) => c.title),
    },
  ];
  return (
    <div>
      <div className="grid gap-3 sm:grid-cols-2">
        {choices.map((choice) => (
          <FormField key={choice.label} label={choice.label}>
            <Select
              value={choice.value}
              onChange={(e) => choice.set(e.target.value)}
              options={choice.options}
            />
          </FormField>
        ))}
      </div>
      {links.length > 0 && (
        <ul aria-label="Links" className="mt-3 flex flex-col gap-2">
          {links.map(([label, path]) => (
            <li key={path} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="w-48 font-medium">{label}</span>
              <code className="rounded bg-slate-100 px-2 py-1">{`${origin}${path}`}</code>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`${label} kopieren`}
                onClick={async () => {
                  await navigator.clipboard.writeText(`${origin}${path}`);
                  alerts.success("Link kopiert.");
                }}
              >
                <CopyIcon aria-hidden="true" className="size-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MailVariables() {
  const catalogue = useQuery(trpc.admin.mailTemplates.getCatalogue.queryOptions());
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-700">
        Variablen stehen in doppelten geschweiften Klammern, z. B. <code>{"{{userFullName}}"}</code>.
        Abschnitte nur für Newsletter-Abonnent:innen: <code>{"{{#if newsletter}} … {{/if}}"}</code>.
      </p>
      {catalogue.data?.map((mail) => (
        <details key={mail.name} className="rounded border border-slate-200 bg-white p-3">
          <summary className="cursor-pointer font-medium">
            {mail.name}: {mail.description}
          </summary>
          <ul className="mt-2 text-sm">
            {Object.entries(mail.variables).map(([variable, meaning]) => (
              <li key={variable}>
                <code>{`{{${variable}}}`}</code> – {meaning}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

export const Route = createFileRoute("/_admin/admin/manage/knowledge")({
  staticData: { adminSection: { label: "Wissensdatenbank", group: "System", position: 12 } },
  // the help texts are static; the URL builder's and the variables' lists load inside their parts
  component: KnowledgeTab,
  errorComponent: LazySectionError,
});

function KnowledgeTab() {
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="kb-hints">
        <h2 id="kb-hints" className="mb-2 text-lg font-semibold">
          Wichtige Hinweise
        </h2>
        <ul className="list-disc pl-5 text-slate-800">
          {HINTS.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="kb-faq">
        <h2 id="kb-faq" className="mb-2 text-lg font-semibold">
          Häufige Fragen
        </h2>
        {FAQ.map((item) => (
          <details key={item.q} className="mb-2 rounded border border-slate-200 bg-white p-3">
            <summary className="cursor-pointer font-medium">{item.q}</summary>
            <p className="mt-2 text-slate-700">{item.a}</p>
          </details>
        ))}
      </section>
      <section aria-labelledby="kb-urls">
        <h2 id="kb-urls" className="mb-2 text-lg font-semibold">
          URL-Baukasten
        </h2>
        <UrlBuilder />
      </section>
      <section aria-labelledby="kb-deps">
        <h2 id="kb-deps" className="mb-2 text-lg font-semibold">
          Datenabhängigkeiten
        </h2>
        <DependencyDiagram />
      </section>
      <section aria-labelledby="kb-vars">
        <h2 id="kb-vars" className="mb-2 text-lg font-semibold">
          Variablen in E-Mails
        </h2>
        <MailVariables />
      </section>
    </div>
  );
}
