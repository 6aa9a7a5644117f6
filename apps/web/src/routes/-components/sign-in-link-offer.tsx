import { MSG } from "@app/shared";
import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { errorBody } from "@/lib/alerts";
import { trpc } from "@/lib/trpc";

/**
 * Under a sign-in that was refused with "Zu viele Anfragen": the owner whose account strangers' failed
 * guesses close to unknown devices gets in through a one-time link by mail (ADR 0091). The answer is
 * the same whether the address has an account or not.
 */
export function SignInLinkOffer({ email }: { email: string }) {
  const request = useMutation(trpc.auth.requestSignInLink.mutationOptions());

  if (request.isSuccess) {
    return (
      <p role="status" className="mt-2">
        {request.data.detail}
      </p>
    );
  }
  return (
    <div className="mt-2 flex flex-col items-start gap-2">
      <p>{MSG.signInLinkOffer}</p>
      <Button
        variant="secondary"
        size="sm"
        disabled={request.isPending || email.trim() === ""}
        onClick={() => request.mutate({ email })}
      >
        {request.isPending ? "Wird gesendet …" : MSG.signInLinkAction}
      </Button>
      {request.isError && <p role="alert">{errorBody(request.error).detail}</p>}
    </div>
  );
}
