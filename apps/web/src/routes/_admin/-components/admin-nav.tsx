import { type AnyRoute, Link, useRouter } from "@tanstack/react-router";
import { ChevronDownIcon } from "lucide-react";
import { type KeyboardEvent, type MouseEvent, useId, useRef, useState } from "react";
import type { AdminGroup, AdminSection } from "@/lib/admin-sections";
import { cn } from "@/lib/utils";
import type { FileRoutesByTo } from "@/routeTree.gen";

/** A section's link: its address and what its route says about it (`staticData.adminSection`). */
interface NavSection extends AdminSection {
  to: keyof FileRoutesByTo;
}

/**
 * The sections from the route tree: the child routes of /admin/manage that name themselves a section, in
 * their order, the overview (no group) first and the others by group, each group where its first section is.
 */
function useSections(): { top: NavSection[]; groups: { label: AdminGroup; sections: NavSection[] }[] } {
  const manage: AnyRoute = useRouter().routesById["/_admin/admin/manage"];
  const sections = (Object.values(manage.children ?? {}) as AnyRoute[])
    .flatMap((route): NavSection[] => {
      const section = route.options.staticData?.adminSection;
      // the index's path ends in a slash, which a link to it leaves out
      return section ? [{ ...section, to: route.fullPath.replace(/(.)\/$/, "$1") }] : [];
    })
    .sort((a, b) => a.position - b.position);
  const groups = new Map<AdminGroup, NavSection[]>();
  for (const section of sections) {
    if (section.group) {
      groups.set(section.group, [...(groups.get(section.group) ?? []), section]);
    }
  }
  return {
    top: sections.filter((section) => !section.group),
    groups: [...groups].map(([label, inGroup]) => ({ label, sections: inGroup })),
  };
}

/** A plain left click, which the router turns into a navigation (not a new tab or window). */
const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

function SectionLink({ section, onChoose }: { section: NavSection; onChoose: (event: MouseEvent) => void }) {
  return (
    <li>
      <Link
        to={section.to}
        // the overview is current only on its own address, a section also when filtered or on another page
        activeOptions={{ exact: section.group === null, includeSearch: false }}
        onClick={onChoose}
        className="block rounded-md px-3 py-2 text-sm text-slate-800 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:font-semibold aria-[current=page]:text-brand-900"
      >
        {section.label}
      </Link>
    </li>
  );
}

/**
 * The administration's sections as links (each an address of its own, so a middle click opens it in a new
 * tab): a side navigation on wide screens; on phones the same navigation folds behind a "Bereiche" button
 * (a disclosure, WAI-ARIA's pattern for a site navigation), which closes again once a section is chosen.
 */
export function AdminNav({ current }: { current: string }) {
  const { top, groups } = useSections();
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
          Bereiche<span className="font-normal text-slate-700">: {current}</span>
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
          {top.map((section) => (
            <SectionLink key={section.to} section={section} onChoose={onChoose} />
          ))}
        </ul>
        {groups.map((group) => (
          <div key={group.label} className="mt-4">
            <p
              id={`${listId}-${group.sections[0]?.position}`}
              className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600"
            >
              {group.label}
            </p>
            <ul
              aria-labelledby={`${listId}-${group.sections[0]?.position}`}
              className="flex flex-col gap-0.5"
            >
              {group.sections.map((section) => (
                <SectionLink key={section.to} section={section} onChoose={onChoose} />
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
