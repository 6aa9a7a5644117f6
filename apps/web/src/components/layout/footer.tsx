import { Link } from "@tanstack/react-router";

export function Footer() {
  return (
    <footer className="mt-auto border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-4 text-sm text-slate-700">
        <p>© {new Date().getFullYear()} Kongress-Plattform</p>
        <nav aria-label="Rechtliches" className="flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/datenschutz" className="underline underline-offset-4 hover:text-slate-900">
            Datenschutz
          </Link>
          <Link to="/impressum" className="underline underline-offset-4 hover:text-slate-900">
            Impressum
          </Link>
          <Link to="/barrierefreiheit" className="underline underline-offset-4 hover:text-slate-900">
            Barrierefreiheit
          </Link>
        </nav>
      </div>
    </footer>
  );
}
