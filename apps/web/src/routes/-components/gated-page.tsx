import { MSG } from "@app/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { LockIcon } from "lucide-react";
import { useEffect } from "react";
import { Page } from "@/components/layout/page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { alerts, errorReason } from "@/lib/alerts";
import { useSession } from "@/lib/auth";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";

const TITLES = {
  "couple-therapy": "Paartherapie-Kongress: Aufzeichnungen",
  "death-congress": "Kongress über Tod und Sterben: Aufzeichnungen",
} as const;

/**
 * One of the two password-gated package pages (their paths live only in the server's configuration).
 * Anonymous visitors go to login; a visitor who already has the package goes to its page; everybody else
 * enters the password once, which unlocks the package for their account (docs/decisions.md).
 */
export function GatedPage({ path, kind }: { path: string; kind: keyof typeof TITLES }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = useQuery({
    ...trpc.gated.getStatus.queryOptions({ path }),
    enabled: user !== null,
    retry: false,
  });
  const unlock = useMutation(trpc.gated.unlock.mutationOptions());
  const form = useSchemaForm({
    // zod comes with the schema on the first submit
    schema: () => import("@app/shared/gated-input").then((m) => m.ZGatedUnlockInput),
    defaultValues: { password: "" },
    toInput: (values) => ({ ...values, path }),
  });

  useEffect(() => {
    if (!user) {
      void alerts
        .error({ title: MSG.notLoggedIn, detail: MSG.unauthorizedDetail })
        .then(() => navigate({ to: "/login/{-$congressId}/{-$showVideo}", search: { redirect: path } }));
    }
  }, [user, navigate, path]);

  const packageId = status.data?.packageId;
  const unlocked = status.data?.unlocked;
  useEffect(() => {
    if (unlocked && packageId) {
      void navigate({
        to: "/congress-package/$congressPackageId",
        params: { congressPackageId: packageId },
      });
    }
  }, [unlocked, packageId, navigate]);

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
        await alerts.error({ title: MSG.defaultErrorTitle, detail: MSG.wrongPassword });
      } else {
        throw failure;
      }
    }
  });

  if (!user || !status.data || status.data.unlocked) {
    return (
      <p role="status" className="text-slate-600">
        Einen Moment bitte …
      </p>
    );
  }
  return (
    <Page title={TITLES[kind]} narrow>
      {status.data.closedNotice ? (
        <Card>
          <p className="text-slate-800">{status.data.closedNotice}</p>
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
            <Button type="submit" disabled={unlock.isPending}>
              Freischalten
            </Button>
          </form>
        </Card>
      )}
    </Page>
  );
}
