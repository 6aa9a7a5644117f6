import { useQuery } from "@tanstack/react-query";
import { ShieldCheckIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { TwoFactorDisableDialog } from "./disable-dialog";
import { RecoveryCodesDialog } from "./recovery-codes-dialog";
import { TwoFactorSetupDialog } from "./setup-dialog";

/** "Später" hides the prompt until the tab is closed: it returns with the next visit (docs/decisions.md). */
const POSTPONED = "two-factor-prompt-postponed";
const isPostponed = () => {
  try {
    return sessionStorage.getItem(POSTPONED) === "1";
  } catch {
    return false;
  }
};

/**
 * Above the admin tabs: asks an admin without two-factor login to set it up, and shows it as active (with
 * the recovery codes left and the way to switch it off) once it is.
 */
export function TwoFactorPanel() {
  const status = useQuery(trpc.admin.twoFactor.status.queryOptions());
  const [postponed, setPostponed] = useState(isPostponed);
  const [dialog, setDialog] = useState<"setup" | "disable" | "codes" | null>(null);
  const close = () => setDialog(null);

  let panel: React.ReactNode = null;
  if (status.data?.enabled) {
    const left = status.data.recoveryCodesLeft;
    panel = (
      <p className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        <ShieldCheckIcon aria-hidden="true" className="size-4 text-green-700" />
        <span>
          Zwei-Faktor-Anmeldung aktiv (
          {left === 1 ? "1 Wiederherstellungscode" : `${left} Wiederherstellungscodes`} übrig)
        </span>
        <Button variant="link" size="inline" onClick={() => setDialog("codes")}>
          Neue Wiederherstellungscodes erstellen
        </Button>
        <Button variant="link" size="inline" onClick={() => setDialog("disable")}>
          Zwei-Faktor-Anmeldung deaktivieren
        </Button>
      </p>
    );
  } else if (status.data && !postponed) {
    panel = (
      <Alert mode="question" className="mb-4" role="region" aria-labelledby="two-factor-prompt-title">
        <h2 id="two-factor-prompt-title" className="font-semibold">
          Schützen Sie Ihr Administrationskonto
        </h2>
        <p className="mt-1">
          Richten Sie die Zwei-Faktor-Anmeldung ein: Zusätzlich zum Passwort fragen wir dann bei jeder
          Anmeldung nach einem Code aus einer Authentifizierungs-App auf Ihrem Smartphone.
        </p>
        <div className="mt-3 flex flex-wrap gap-3">
          <Button onClick={() => setDialog("setup")}>Jetzt einrichten</Button>
          <Button
            variant="secondary"
            onClick={() => {
              try {
                sessionStorage.setItem(POSTPONED, "1");
              } catch {
                // without storage the prompt simply stays hidden until the page is reloaded
              }
              setPostponed(true);
            }}
          >
            Später
          </Button>
        </div>
      </Alert>
    );
  }
  return (
    <>
      {panel}
      {dialog === "setup" && <TwoFactorSetupDialog onClose={close} />}
      {dialog === "disable" && <TwoFactorDisableDialog onClose={close} />}
      {dialog === "codes" && <RecoveryCodesDialog onClose={close} />}
    </>
  );
}
