import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CodeForm } from "@/components/code-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { alerts } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";

/** The recovery codes as they are shown once (after the setup and after a renewal), with what to do. */
export function RecoveryCodesShown({
  codes,
  intro,
  onClose,
}: {
  codes: string[];
  intro: string;
  onClose: () => void;
}) {
  return (
    <>
      <DialogDescription>{intro}</DialogDescription>
      <ul aria-label="Wiederherstellungscodes" className="mt-4 grid grid-cols-2 gap-2 font-mono text-base">
        {codes.map((code) => (
          <li key={code} className="rounded border border-slate-300 bg-slate-50 px-3 py-1.5 text-center">
            {code}
          </li>
        ))}
      </ul>
      <DialogFooter>
        <Button onClick={onClose}>Ich habe die Codes notiert</Button>
      </DialogFooter>
    </>
  );
}

/** Ten new recovery codes for a current app code; the earlier ones stop working. */
export function RecoveryCodesDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const renew = useMutation(trpc.admin.twoFactor.renewRecoveryCodes.mutationOptions());
  const [codes, setCodes] = useState<string[] | null>(null);
  const onCode = async (code: string) => {
    const result = await renew.mutateAsync({ code });
    setCodes(result.recoveryCodes);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.twoFactor.pathKey() });
    alerts.success(result.detail);
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size="md">
        <DialogTitle>Neue Wiederherstellungscodes</DialogTitle>
        {codes ? (
          <RecoveryCodesShown
            codes={codes}
            intro="Notieren Sie diese Wiederherstellungscodes und bewahren Sie sie sicher auf. Die bisherigen Codes gelten nicht mehr. Die neuen Codes werden nur jetzt angezeigt."
            onClose={onClose}
          />
        ) : (
          <>
            <DialogDescription>
              Bestätigen Sie mit einem aktuellen Code Ihrer Authentifizierungs-App. Danach gelten nur noch die
              zehn neuen Codes; die bisherigen verfallen.
            </DialogDescription>
            <div className="mt-4">
              <CodeForm
                label="Bestätigungscode aus Ihrer Authentifizierungs-App"
                submitLabel="Neue Codes erstellen"
                onCode={onCode}
                pending={renew.isPending}
                onCancel={onClose}
              />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
