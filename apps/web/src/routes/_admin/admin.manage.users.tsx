import { formatGermanDate, formatGermanDateTime, MSG, MSG_ADMIN, ZUserUpdateInput } from "@app/shared";
import { SEARCH_MAX } from "@app/shared/constants";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { AdminResource, yesNo } from "@/components/admin/admin-resource";
import { ExportButtons } from "@/components/admin/export-buttons";
import { fromSearch, useFilterBar } from "@/components/admin/filters";
import { ResourceEditor, type SchemaForm } from "@/components/admin/resource-editor";
import { LazySectionError } from "@/components/lazy-route-error";
import { FlagField } from "@/components/ui/flag-field";
import { Switch } from "@/components/ui/switch";
import { TextField } from "@/components/ui/text-field";
import { alerts, showError } from "@/lib/alerts";
import { useSession } from "@/lib/auth";
import { filterText, pageNumber, type SectionSearch } from "@/lib/search";
import { trpc, trpcClient } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";
import { type UserDetails, type UserForm, userToForm } from "./-components/admin-forms";

type UserRow = RouterOutputs["admin"]["users"]["list"]["items"][number];

/**
 * The table's active switch, saved at once. The admin's own account cannot be deactivated (the server
 * refuses it): its switch is off, with the reason for screen readers and as a tooltip.
 */
function ActiveSwitch({
  user,
  name,
  own,
  onChange,
}: {
  user: UserRow;
  name: string;
  own: boolean;
  onChange: (active: boolean) => void;
}) {
  const reasonId = `own-account-${user.id}`;
  return (
    <span title={own ? MSG_ADMIN.cannotDeactivateSelf : undefined} className="inline-flex">
      <Switch
        checked={user.active}
        aria-label={`${name} aktiv`}
        disabled={own}
        aria-describedby={own ? reasonId : undefined}
        onCheckedChange={onChange}
      />
      {own && (
        <span id={reasonId} className="sr-only">
          {MSG_ADMIN.cannotDeactivateSelf}
        </span>
      )}
    </span>
  );
}

function UserFields({
  form,
  user,
}: {
  form: SchemaForm<UserForm, typeof ZUserUpdateInput>;
  user: UserDetails;
}) {
  const { control } = form;
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="firstname" label="Vorname" />
        <TextField form={form} name="lastname" label="Nachname" />
      </div>
      <TextField form={form} name="email" label="E-Mail" type="email" />
      <div className="flex gap-8">
        <FlagField control={control} name="active" label="Aktiv" as="switch" />
        <FlagField control={control} name="admin" label="Administrator:in" as="switch" />
      </div>
      <section aria-label="Teilnahmen">
        <h3 className="mb-2 text-sm font-semibold">Teilnahmen</h3>
        {user.participations.length ? (
          <ul className="list-disc pl-5 text-sm">
            {user.participations.map((p) => (
              <li key={p.id}>
                {p.congressTitle} – seit {formatGermanDateTime(p.createdAt)} Uhr
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">Keine Teilnahmen.</p>
        )}
      </section>
      <section aria-labelledby="user-attendance">
        <h3 id="user-attendance" className="mb-2 text-sm font-semibold">
          Anwesenheit
        </h3>
        {user.attendance.length ? (
          <ul className="list-disc pl-5 text-sm">
            {user.attendance.map((a) => (
              <li key={a.congressId}>
                {a.title}: {a.days.map(formatGermanDate).join(", ")}{" "}
                <span className="text-slate-600">
                  ({a.days.length === 1 ? "1 Tag" : `${a.days.length} Tage`})
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">Keine Anwesenheit erfasst.</p>
        )}
      </section>
    </>
  );
}

/** The user's record loads first; the form is made once it is there. */
function UserEditor({ id }: { id: number }) {
  const user = useQuery(trpc.admin.users.get.queryOptions({ id }));
  const loaded = user.data;
  return (
    <ResourceEditor
      title="Benutzer:in bearbeiten"
      schema={ZUserUpdateInput}
      defaultValues={loaded && userToForm(loaded)}
      save={trpcClient.admin.users.save.mutate}
      success={MSG.userSaved}
    >
      {(form) => loaded && <UserFields form={form} user={loaded} />}
    </ResourceEditor>
  );
}

const USER_FILTERS = { name: "", email: "" };

/** A page of the users table as filtered (the section's loader asks for the one its address names). */
const usersPage = (filters = USER_FILTERS, page = 1) =>
  trpc.admin.users.list.queryOptions({ ...filters, page });

export const Route = createFileRoute("/_admin/admin/manage/users")({
  staticData: { adminSection: { label: "Benutzer:innen", group: "Personen", position: 7 } },
  validateSearch: (search: Record<string, unknown>): SectionSearch<"name" | "email"> => ({
    name: filterText(search.name, SEARCH_MAX.userName),
    email: filterText(search.email, SEARCH_MAX.userEmail),
    page: pageNumber(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    queryClient.ensureQueryData(usersPage(...fromSearch(USER_FILTERS, deps))),
  component: UsersTab,
  errorComponent: LazySectionError,
});

function UsersTab() {
  const queryClient = useQueryClient();
  const filters = useFilterBar([
    { name: "name", label: "Nach Name filtern", kind: "search", maxLength: SEARCH_MAX.userName },
    { name: "email", label: "Nach E-Mail filtern", kind: "search", maxLength: SEARCH_MAX.userEmail },
  ]);
  const listKey = usersPage(filters.applied, filters.page).queryKey;
  const setActive = useMutation(trpc.admin.users.setActive.mutationOptions());
  const ownId = useSession().user?.id;

  const toggleActive = async (user: UserRow, active: boolean) => {
    // saved at once; shown at once and rolled back when saving fails
    const before = queryClient.getQueryData(listKey);
    queryClient.setQueryData(listKey, (data) =>
      data ? { ...data, items: data.items.map((u) => (u.id === user.id ? { ...u, active } : u)) } : data,
    );
    try {
      await setActive.mutateAsync({ id: user.id, active });
      alerts.success(MSG.userSaved);
    } catch (error) {
      queryClient.setQueryData(listKey, before);
      await showError(error);
    }
  };

  const name = (u: UserRow) => `${u.firstname} ${u.lastname}`;
  return (
    <AdminResource<UserRow>
      list={(page) => usersPage(filters.applied, page)}
      filters={filters}
      actions={
        <ExportButtons
          path="/api/admin/exports/users"
          query={{ name: filters.shown.name.trim(), email: filters.shown.email.trim() }}
          what="Benutzer:innen"
        />
      }
      columns={[
        { header: "Name", cell: name },
        { header: "E-Mail", cell: (u) => u.email },
        { header: "Admin", cell: (u) => yesNo(u.admin) },
        {
          header: "Aktiv",
          cell: (u) => (
            <ActiveSwitch
              user={u}
              name={name(u)}
              own={u.id === ownId}
              onChange={(v) => void toggleActive(u, v)}
            />
          ),
        },
        { header: "Newsletter", cell: (u) => yesNo(u.newsletter) },
        { header: "Migration offen", cell: (u) => yesNo(u.migrationPending) },
        { header: "Teilnahmen", cell: (u) => u.participations.join(", ") || "–" },
      ]}
      rowName={name}
      editor={(u) => u && <UserEditor id={u.id} />}
      remove={{
        run: (u) => trpcClient.admin.users.delete.mutate({ id: u.id }),
        detail: (u) => `${name(u)} (${u.email}) wird mit allen Teilnahmen und Bestellungen gelöscht.`,
        success: MSG.userDeleted,
        failure: "Die Benutzerin / der Benutzer konnte nicht gelöscht werden.",
      }}
    />
  );
}
