import type { ReactNode } from "react";

/** A page with its one h1. */
export function Page({
  title,
  children,
  narrow = false,
}: {
  title: string;
  children?: ReactNode;
  narrow?: boolean;
}) {
  return (
    <div className={narrow ? "mx-auto max-w-xl" : undefined}>
      <h1 className="mb-6 text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
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
