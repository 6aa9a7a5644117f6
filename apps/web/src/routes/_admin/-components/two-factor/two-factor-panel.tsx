import { useSuspenseQuery } from "@tanstack/react-query";
import { ShieldAlertIcon, ShieldCheckIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useSession } from "@/lib/auth";
import { trpc } from "@/lib/trpc";
import { TwoFactorDisableDialog } from "./disable-dialog";
import { isNoticePostponed, postponeNotice } from "./notice";
import { RecoveryCodesDialog } from "./recovery-codes-dialog";
import { TwoFactorSetupDialog, useSetupBegin } from "./setup-dialog";

const storage = () => localStorage;

/**
 * Above the administration: asks an admin without two-factor login to set it up, in a notice that "Später"
 * hides for a week (then a quiet line keeps the way to the setup); shows it as active (with the recovery
 * codes left and the way to switch it off) once it is. The route's loader has read the status.
 */
export function TwoFactorPanel() {
  const { data: status } = useSuspenseQuery(trpc.admin.twoFactor.getStatus.queryOptions());
  const userId = useSession().user?.id ?? 0;
  // "now": postponed with the notice's button, whose focus goes to the line that stays
  const [postponed, setPostponed] = useState<boolean | "now">(() =>
    isNoticePostponed(storage, userId, Date.now()),
  );
  const [dialog, setDialog] = useState<"setup" | "disable" | "codes" | null>(null);
  const begin = useSetupBegin();
  const close = () => setDialog(null);
  const setUp = () => {
    begin.mutate();
    setDialog("setup");
  };

  let panel: React.ReactNode;
  if (status.enabled) {
    const left = status.recoveryCodesLeft;
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
  } else if (postponed) {
    panel = (
      <p className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        <ShieldAlertIcon aria-hidden="true" className="size-4 text-amber-700" />
        <span>Zwei-Faktor-Anmeldung nicht eingerichtet</span>
        <Button
          variant="link"
          size="inline"
          onClick={setUp}
          ref={(button) => {
            if (postponed === "now") {
              button?.focus();
            }
          }}
        >
          Zwei-Faktor-Anmeldung einrichten
        </Button>
      </p>
    );
  } else {
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
          <Button onClick={setUp}>Jetzt einrichten</Button>
          <Button
            variant="secondary"
            onClick={() => {
              postponeNotice(storage, userId, Date.now());
              setPostponed("now");
            }}
          >
            In einer Woche erinnern
          </Button>
        </div>
      </Alert>
    );
  }
  return (
    <>
      {panel}
      {dialog === "setup" && <TwoFactorSetupDialog begin={begin} onClose={close} />}
      {dialog === "disable" && <TwoFactorDisableDialog onClose={close} />}
      {dialog === "codes" && <RecoveryCodesDialog onClose={close} />}
    </>
  );
}
