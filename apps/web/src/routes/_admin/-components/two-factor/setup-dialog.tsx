import { useMutation } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { DialogDescription } from "@/components/ui/dialog";
import { errorBody } from "@/lib/alerts";
import { trpc, trpcClient } from "@/lib/trpc";
import { TwoFactorCodeDialog } from "./code-dialog";

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * The new secret of a setup. The click that opens the dialog asks for it (`begin.mutate()`), so each
 * opening shows a secret of its own and nothing is asked for by the dialog's mounting.
 */
export const useSetupBegin = () => useMutation(trpc.admin.twoFactor.begin.mutationOptions());
type SetupBegin = ReturnType<typeof useSetupBegin>;

/**
 * Setting up the two-factor login: scan the QR code (or type the secret), confirm with a current code,
 * then note the recovery codes, which are shown only here.
 */
export function TwoFactorSetupDialog({ begin, onClose }: { begin: SetupBegin; onClose: () => void }) {
  return (
    <TwoFactorCodeDialog
      title="Zwei-Faktor-Anmeldung einrichten"
      size="xl"
      confirm={trpcClient.admin.twoFactor.enable.mutate}
      codesIntro="Die Zwei-Faktor-Anmeldung ist eingerichtet. Notieren Sie diese Wiederherstellungscodes und bewahren Sie sie sicher auf: Mit jedem Code können Sie sich einmal ohne Ihre Authentifizierungs-App anmelden. Die Codes werden nur jetzt angezeigt."
      submitLabel="Aktivieren"
      waiting={!begin.data}
      onClose={onClose}
    >
      <DialogDescription>
        Scannen Sie den QR-Code mit Ihrer Authentifizierungs-App (zum Beispiel Google Authenticator, Microsoft
        Authenticator oder FreeOTP) oder geben Sie den Schlüssel von Hand ein. Bestätigen Sie danach mit dem
        sechsstelligen Code, den die App anzeigt.
      </DialogDescription>
      {begin.isError && (
        <Alert mode="error" role="alert" className="mt-4">
          <p>{errorBody(begin.error).detail}</p>
        </Alert>
      )}
      {begin.data && (
        <div className="mt-4 flex flex-col items-center gap-3">
          <img
            src={begin.data.qrCode}
            alt="QR-Code für die Authentifizierungs-App"
            width={200}
            height={200}
            className="size-50 border border-slate-200"
          />
          <p className="text-center text-sm text-slate-700">
            Schlüssel zur Eingabe von Hand:
            <br />
            <code data-testid="totp-secret" className="font-mono text-base text-slate-900">
              {grouped(begin.data.secret)}
            </code>
          </p>
        </div>
      )}
    </TwoFactorCodeDialog>
  );
}
