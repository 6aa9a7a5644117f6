import { DialogDescription } from "@/components/ui/dialog";
import { alerts } from "@/lib/alerts";
import { trpcClient } from "@/lib/trpc";
import { TwoFactorCodeDialog } from "./code-dialog";

/** Switching the two-factor login off takes a current code (or an unused recovery code). */
export function TwoFactorDisableDialog({ onClose }: { onClose: () => void }) {
  return (
    <TwoFactorCodeDialog
      title="Zwei-Faktor-Anmeldung deaktivieren"
      confirm={trpcClient.admin.twoFactor.disable.mutate}
      onConfirmed={(answer) => {
        onClose();
        alerts.success(answer.detail);
      }}
      label="Bestätigungscode"
      submitLabel="Deaktivieren"
      onClose={onClose}
    >
      <DialogDescription>
        Bestätigen Sie mit einem aktuellen Code Ihrer Authentifizierungs-App. Ohne die App hilft ein
        unbenutzter Wiederherstellungscode. Danach genügt wieder das Passwort zur Anmeldung.
      </DialogDescription>
    </TwoFactorCodeDialog>
  );
}
