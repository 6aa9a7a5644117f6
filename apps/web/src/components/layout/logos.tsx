/** Product logo and the three publisher logos (our own simple marks). */
export function ProductLogo() {
  return (
    <span className="flex items-center gap-2">
      <svg viewBox="0 0 32 32" className="size-9" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#1e3a8a" />
        <circle cx="16" cy="13" r="6" fill="none" stroke="#fff" strokeWidth="3" />
        <path
          d="M7 27c2-5 5-7 9-7s7 2 9 7"
          fill="none"
          stroke="#fbbf24"
          strokeWidth="3"
          strokeLinecap="round"
        />
      </svg>
      <span className="text-lg font-bold text-brand-900">Kongress-Plattform</span>
    </span>
  );
}

const PUBLISHERS = [
  { name: "Verlag Horizont", shape: <circle cx="12" cy="12" r="9" fill="#0f766e" /> },
  { name: "Edition Brücke", shape: <path d="M2 18 Q12 2 22 18 Z" fill="#9a3412" /> },
  { name: "Forum Dialog", shape: <rect x="3" y="3" width="18" height="18" rx="4" fill="#6d28d9" /> },
];

/** The three marks on every width; their names beside them from 640 px (at 320 px the marks alone fit). */
export function PublisherLogos() {
  return (
    <ul className="flex items-center gap-2 sm:gap-3" aria-label="Herausgeber">
      {PUBLISHERS.map((publisher) => (
        <li key={publisher.name} className="flex items-center gap-1.5 text-xs font-medium text-slate-700">
          <svg viewBox="0 0 24 24" className="size-5" role="img" aria-label={publisher.name}>
            {publisher.shape}
          </svg>
          <span aria-hidden="true" className="hidden sm:inline">
            {publisher.name}
          </span>
        </li>
      ))}
    </ul>
  );
}
