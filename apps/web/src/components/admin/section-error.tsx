import { type ErrorComponentProps, useMatch, useRouter } from "@tanstack/react-router";
import { LoadError } from "@/components/admin/load-error";
import { RequestId, useSessionRenewal } from "@/components/route-error";

/**
 * A section of /admin/manage whose loader or component failed: inside the administration (its heading,
 * navigation and the other sections stay), the spec's 'Fehler beim Laden der Daten' with what could not be
 * loaded, "Erneut versuchen" and the request id for support. A refused session is renewed first.
 */
export function SectionError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const section = useMatch({ strict: false, select: (match) => match.staticData.adminSection });
  if (useSessionRenewal(error, reset)) {
    return null;
  }
  return (
    <div>
      <LoadError
        what={section?.what ?? `Die ${section?.label ?? "Daten"}`}
        // the router loads the section again and, once that is done, shows it in place of this page (a reset
        // before would show this page anew while the section loads, with its dialog a second time)
        onRetry={() => void router.invalidate()}
      />
      <div className="mt-3">
        <RequestId error={error} />
      </div>
    </div>
  );
}
