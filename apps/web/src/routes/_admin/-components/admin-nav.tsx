import { Link } from "@tanstack/react-router";
import { ChevronDownIcon } from "lucide-react";
import { type KeyboardEvent, type MouseEvent, useId, useRef, useState } from "react";
import type { AdminTab } from "@/lib/admin-tabs";
import { cn } from "@/lib/utils";

/** What each section is called in the navigation (and on the phone's menu button). */
export const SECTION_LABELS: Record<AdminTab, string> = {
  dashboard: "Übersicht",
  events: "Veranstaltungen",
  packages: "Kongresspakete",
  contents: "Videoinhalte",
  "package-orders": "Paketbestellungen",
  "ticket-orders": "Ticketbestellungen",
  "payment-notifications": "Zahlungsmeldungen",
  users: "Benutzer:innen",
  "mail-templates": "E-Mail-Templates",
  "mail-outbox": "E-Mail-Versand",
  "legal-pages": "Rechtliche Seiten",
  audit: "Protokoll",
  knowledge: "Wissensdatenbank",
};

/** The sections grouped by task, as pretix and Indico group theirs; the overview stands above the groups. */
const GROUPS = [
  { label: "Veranstaltungen & Inhalte", tabs: ["events", "packages", "contents"] },
  { label: "Verkauf", tabs: ["package-orders", "ticket-orders", "payment-notifications"] },
  { label: "Personen", tabs: ["users"] },
  { label: "Kommunikation", tabs: ["mail-templates", "mail-outbox"] },
  { label: "System", tabs: ["legal-pages", "audit", "knowledge"] },
] as const satisfies readonly { label: string; tabs: readonly AdminTab[] }[];

// every section but the overview belongs to a group: a new tab fails the typecheck until it has one
type Grouped = (typeof GROUPS)[number]["tabs"][number];
const everyTabGrouped: Exclude<AdminTab, Grouped | "dashboard"> extends never ? true : never = true;
void everyTabGrouped;

/** A plain left click, which the router turns into a navigation (not a new tab or window). */
const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

function SectionLink({
  tab,
  active,
  onChoose,
}: {
  tab: AdminTab;
  active: boolean;
  onChoose: (event: MouseEvent) => void;
}) {
  return (
    <li>
      <Link
        to="/admin/manage"
        search={{ tab }}
        // the router marks a link active by the URL's search, which lacks `tab` for the overview's address
        aria-current={active ? "page" : undefined}
        onClick={onChoose}
        className="block rounded-md px-3 py-2 text-sm text-slate-800 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:font-semibold aria-[current=page]:text-brand-900"
      >
        {SECTION_LABELS[tab]}
      </Link>
    </li>
  );
}

/**
 * The administration's sections as links (each an address of its own, so a middle click opens it in a new
 * tab): a side navigation on wide screens; on phones the same navigation folds behind a "Bereiche" button
 * (a disclosure, WAI-ARIA's pattern for a site navigation), which closes again once a section is chosen.
 */
export function AdminNav({ current }: { current: AdminTab }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onChoose = (event: MouseEvent) => {
    // on a phone the chosen section's name shows on the button, which keeps the focus the hidden link had
    if (open && plainClick(event)) {
      close();
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (open && event.key === "Escape") {
      event.preventDefault();
      close();
    }
  };
  return (
    <nav aria-label="Bereiche der Administration" onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-4 py-2.5 text-left text-sm font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 lg:hidden"
      >
        <span>
          Bereiche<span className="font-normal text-slate-700">: {SECTION_LABELS[current]}</span>
        </span>
        <ChevronDownIcon
          aria-hidden="true"
          className={cn("size-4 transition-transform", open && "rotate-180")}
        />
      </button>
      <div
        id={listId}
        className={cn(
          "mt-2 rounded-md border border-slate-200 bg-white p-2 lg:mt-0 lg:block lg:border-0 lg:bg-transparent lg:p-0",
          !open && "hidden",
        )}
      >
        <ul className="flex flex-col gap-0.5">
          <SectionLink tab="dashboard" active={current === "dashboard"} onChoose={onChoose} />
        </ul>
        {GROUPS.map((group) => (
          <div key={group.label} className="mt-4">
            <p
              id={`${listId}-${group.tabs[0]}`}
              className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600"
            >
              {group.label}
            </p>
            <ul aria-labelledby={`${listId}-${group.tabs[0]}`} className="flex flex-col gap-0.5">
              {group.tabs.map((tab) => (
                <SectionLink key={tab} tab={tab} active={current === tab} onChoose={onChoose} />
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
