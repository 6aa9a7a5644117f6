import { useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { Page } from "@/components/layout/page";
import { Card } from "@/components/ui/card";
import { trpc } from "@/lib/trpc";

export const Route = createFileRoute("/_user/profile")({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.account.profile.queryOptions()),
  component: Profile,
});

function Profile() {
  const { data: profile } = useQuery(trpc.account.profile.queryOptions());
  if (!profile) {
    return null;
  }
  return (
    <Page title="Mein Profil">
      <Card className="max-w-xl">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-3">
          <dt className="font-medium text-slate-700">Name</dt>
          <dd>
            {profile.firstname} {profile.lastname}
          </dd>
          <dt className="font-medium text-slate-700">E-Mail</dt>
          <dd>{profile.email}</dd>
        </dl>
      </Card>
    </Page>
  );
}
