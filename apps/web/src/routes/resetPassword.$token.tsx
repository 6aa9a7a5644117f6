import { createFileRoute, redirect } from "@tanstack/react-router";
import { RESET_TOKEN_KEY } from "@/lib/reset-token";

/** Validates the mailed token on the server: valid → keep it for the form, invalid → forgot-password. */
export const Route = createFileRoute("/resetPassword/$token")({
  beforeLoad: async ({ context, params }) => {
    const result = await context.queryClient
      .fetchQuery(context.trpc.auth.validateResetToken.queryOptions({ token: params.token }))
      .catch(() => ({ valid: false }));
    if (!result.valid) {
      sessionStorage.removeItem(RESET_TOKEN_KEY);
      throw redirect({ to: "/forgot-password", replace: true });
    }
    sessionStorage.setItem(RESET_TOKEN_KEY, params.token);
    throw redirect({ to: "/resetPassword", replace: true });
  },
});
