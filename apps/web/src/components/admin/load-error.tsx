import { MSG } from "@app/shared";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { alerts } from "@/lib/alerts";

/** 'Fehler beim Laden der Daten' with what could not be loaded (spec section 8). */
export function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  const text = `${what} konnten nicht geladen werden. Bitte wenden Sie sich an den technischen Support, wenn das Problem bestehen bleibt.`;
  useEffect(() => {
    void alerts.error({ title: MSG.adminLoadFailedTitle, detail: text });
  }, [text]);
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{MSG.adminLoadFailedTitle}</p>
      <p className="mt-1">{text}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
        Erneut versuchen
      </Button>
    </div>
  );
}
