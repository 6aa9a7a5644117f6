import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CodeForm } from "@/components/code-form";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { alerts } from "@/lib/alerts";
import { session } from "@/lib/auth";
import { trpc } from "@/lib/trpc";

/** Switching the two-factor login off takes a current code (or an unused recovery code). */
export function TwoFactorDisableDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const disable = useMutation(trpc.admin.twoFactor.disable.mutationOptions());
  const onCode = async (code: string) => {
    const result = await disable.mutateAsync({ code });
    // the switch ended every session; this browser continues with the new one
    session.signIn(result.session);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.twoFactor.pathKey() });
    onClose();
    alerts.success(result.detail);
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size="md">
        <DialogTitle>Zwei-Faktor-Anmeldung deaktivieren</DialogTitle>
        <DialogDescription>
          Bestätigen Sie mit einem aktuellen Code Ihrer Authentifizierungs-App. Ohne die App hilft ein
          unbenutzter Wiederherstellungscode. Danach genügt wieder das Passwort zur Anmeldung.
        </DialogDescription>
        <div className="mt-4">
          <CodeForm
            label="Bestätigungscode"
            submitLabel="Deaktivieren"
            onCode={onCode}
            pending={disable.isPending}
            onCancel={onClose}
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
