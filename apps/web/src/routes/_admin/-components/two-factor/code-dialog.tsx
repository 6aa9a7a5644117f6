import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { CodeForm } from "@/components/code-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { session } from "@/lib/auth";
import type { IssuedSession } from "@/lib/session/session-manager";
import { trpc } from "@/lib/trpc";

/** What a two-factor change may answer: a new session (switched on or off), new recovery codes. */
interface Answer {
  session?: IssuedSession;
  recoveryCodes?: string[];
}

interface CodeDialogProps<R extends Answer> {
  title: string;
  size?: "md" | "xl";
  /** the procedure that takes the code */
  confirm: (input: { code: string }) => Promise<R>;
  /** once the status shows the change */
  onConfirmed?: (answer: R) => void;
  /** what to do with the recovery codes the answer brings (shown only now, instead of the form) */
  codesIntro?: string;
  label?: string;
  submitLabel: string;
  /** the code form waits for this too (the setup's secret) */
  waiting?: boolean;
  onClose: () => void;
  /** above the code field: what confirming does (a `DialogDescription`), the setup's QR code */
  children: ReactNode;
}

/**
 * A change of the two-factor login that a current code confirms (setup, new recovery codes, switching
 * off): the code form (refusals under the field), then the new session is taken, the status read again
 * and the new recovery codes shown.
 */
export function TwoFactorCodeDialog<R extends Answer>({
  title,
  size = "md",
  confirm,
  onConfirmed,
  codesIntro = "",
  label = "Bestätigungscode aus Ihrer Authentifizierungs-App",
  submitLabel,
  waiting = false,
  onClose,
  children,
}: CodeDialogProps<R>) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: confirm });
  const [codes, setCodes] = useState<string[]>();
  const onCode = async (code: string) => {
    const answer = await mutation.mutateAsync({ code });
    if (answer.session) {
      // switching on or off ended every session; this browser continues with the new one
      session.signIn(answer.session);
    }
    setCodes(answer.recoveryCodes);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.twoFactor.pathKey() });
    onConfirmed?.(answer);
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size={size}>
        <DialogTitle>{title}</DialogTitle>
        {codes ? (
          <RecoveryCodesShown codes={codes} intro={codesIntro} onClose={onClose} />
        ) : (
          <>
            {children}
            <div className="mt-4">
              <CodeForm
                label={label}
                submitLabel={submitLabel}
                onCode={onCode}
                pending={mutation.isPending || waiting}
                onCancel={onClose}
              />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The recovery codes as they are shown once (after the setup and after a renewal), with what to do. */
function RecoveryCodesShown({
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
