import { type ReactNode, useEffect, useRef } from "react";

const SITE_NAME = "Kongress-Plattform";

/** false until the first page has been shown: the first page keeps the browser's own focus start */
let shownBefore = false;

/**
 * A page with its one h1. It names the browser tab after the page, and after a navigation inside the app
 * it moves the focus to the h1, so screen readers announce the new page and Tab starts at its content.
 */
export function Page({
  title,
  children,
  narrow = false,
}: {
  title: string;
  children?: ReactNode;
  narrow?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} – ${SITE_NAME}`;
  }, [title]);
  useEffect(() => {
    const active = document.activeElement;
    // a dialog that opened with the page keeps the focus
    if (shownBefore && !active?.closest('[role="dialog"], [role="alertdialog"]')) {
      heading.current?.focus({ preventScroll: true });
    }
    shownBefore = true;
  }, []);
  return (
    <div className={narrow ? "mx-auto max-w-xl" : undefined}>
      <h1
        ref={heading}
        tabIndex={-1}
        className="mb-6 text-2xl font-bold text-slate-900 focus:outline-none sm:text-3xl"
      >
        {title}
      </h1>
      {children}
    </div>
  );
}

/** For routes whose issue has not been built yet. */
export function Placeholder({ title, text }: { title: string; text: string }) {
  return (
    <Page title={title}>
      <p className="text-slate-700">{text}</p>
    </Page>
  );
}
