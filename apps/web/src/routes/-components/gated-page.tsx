import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { TRPCClientError } from "@trpc/client";
import { LockIcon } from "lucide-react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, errorBody, errorReason } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { type Trpc, trpc } from "@/lib/trpc";
import type { RouterContext } from "../__root";

const TITLES = {
  "couple-therapy": "Paartherapie-Kongress: Aufzeichnungen",
  "death-congress": "Kongress über Tod und Sterben: Aufzeichnungen",
} as const;

/** Which gated page `path` is, or null when it is none (an unknown path: the not-found page). */
export async function resolveGated({ queryClient, trpc: api }: RouterContext, path: string) {
  try {
    return await queryClient.ensureQueryData({
      ...api.gated.resolve.queryOptions({ path }),
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
    });
  } catch (error) {
    if (error instanceof TRPCClientError && error.data?.httpStatus === 404) {
      return null;
    }
    throw error;
  }
}

export const gatedStatusQuery = (api: Trpc, path: string) =>
  api.gated.getStatus.queryOptions({ path }, { retry: false });

/**
 * One of the two password-gated package pages (their paths live only in the server's configuration), for a
 * signed-in visitor who does not have the package yet: the password unlocks it for their account
 * (ADR 0019). The route's loader (`routes/$.tsx`) sends everybody else on.
 */
export function GatedPage({ path, kind }: { path: string; kind: keyof typeof TITLES }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: status } = useSuspenseQuery(gatedStatusQuery(trpc, path));
  const unlock = useMutation(trpc.gated.unlock.mutationOptions());
  const form = useSchemaForm({
    // zod comes with the schema on the first submit
    schema: () => import("@app/shared/gated-input").then((m) => m.ZGatedUnlockInput),
    defaultValues: { password: "" },
    toInput: (values) => ({ ...values, path }),
  });

  const onSubmit = form.submit(async (input) => {
    try {
      const result = await unlock.mutateAsync(input);
      await queryClient.invalidateQueries({ queryKey: trpc.congress.getOverview.queryKey() });
      await navigate({
        to: "/congress-package/$congressPackageId",
        params: { congressPackageId: result.packageId },
      });
    } catch (failure) {
      form.setValue("password", "");
      if (errorReason(failure) === "wrong-password") {
        // the server's "Falsches Passwort" with what to do (packages/shared/src/refusals.ts)
        await alerts.error(errorBody(failure));
      } else {
        throw failure;
      }
    }
  });

  return (
    <Page title={TITLES[kind]} narrow>
      {status.closedNotice ? (
        <Card>
          <p className="text-slate-800">{status.closedNotice}</p>
        </Card>
      ) : (
        <Card>
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
            <p className="flex items-start gap-2 text-slate-700">
              <LockIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              Diese Aufzeichnungen sind geschützt. Bitte geben Sie das Passwort ein, das Sie erhalten haben.
            </p>
            <FormField label="Passwort" error={form.errorOf("password")}>
              <Input type="password" autoComplete="off" {...form.register("password")} />
            </FormField>
            <Button type="submit" disabled={form.submitting}>
              Freischalten
            </Button>
          </form>
        </Card>
      )}
    </Page>
  );
}
