import { DialogDescription } from "@/components/ui/dialog";
import { alerts } from "@/lib/alerts";
import { trpcClient } from "@/lib/trpc";
import { TwoFactorCodeDialog } from "./code-dialog";

/** Ten new recovery codes for a current app code; the earlier ones stop working. */
export function RecoveryCodesDialog({ onClose }: { onClose: () => void }) {
  return (
    <TwoFactorCodeDialog
      title="Neue Wiederherstellungscodes"
      confirm={trpcClient.admin.twoFactor.renewRecoveryCodes.mutate}
      onConfirmed={(answer) => alerts.success(answer.detail)}
      codesIntro="Notieren Sie diese Wiederherstellungscodes und bewahren Sie sie sicher auf. Die bisherigen Codes gelten nicht mehr. Die neuen Codes werden nur jetzt angezeigt."
      submitLabel="Neue Codes erstellen"
      onClose={onClose}
    >
      <DialogDescription>
        Bestätigen Sie mit einem aktuellen Code Ihrer Authentifizierungs-App. Danach gelten nur noch die zehn
        neuen Codes; die bisherigen verfallen.
      </DialogDescription>
    </TwoFactorCodeDialog>
  );
}
