import { formatGermanDate, formatGermanDateTime, MSG, ZUserUpdateInput } from "@app/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  confirmDelete,
  DataTable,
  LoadError,
  RowActions,
  ServerPager,
  useDebounced,
  yesNo,
} from "@/components/admin/admin-kit";
import { ExportButtons } from "@/components/admin/export-buttons";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { FlagField } from "@/components/ui/flag-field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { alerts, showError } from "@/lib/alerts";
import { useSchemaForm } from "@/lib/schema-form";
import { trpc } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/types";

type UserRow = RouterOutputs["admin"]["users"]["list"]["items"][number];

type UserDetails = RouterOutputs["admin"]["users"]["get"];

function UserDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const user = useQuery(trpc.admin.users.get.queryOptions({ id }));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent size="xl">
        <DialogTitle>Benutzer:in bearbeiten</DialogTitle>
        {user.data ? <UserForm user={user.data} onClose={onClose} /> : <p role="status">Wird geladen …</p>}
      </DialogContent>
    </Dialog>
  );
}

function UserForm({ user, onClose }: { user: UserDetails; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation(trpc.admin.users.save.mutationOptions());
  const { participations: _p, attendance: _a, ...fields } = user;
  const form = useSchemaForm({ schema: ZUserUpdateInput, defaultValues: fields });
  const { register, control, errorOf } = form;

  const onSubmit = form.submit(async (input) => {
    await save.mutateAsync(input);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() });
    alerts.success(MSG.userSaved);
    onClose();
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Vorname" error={errorOf("firstname")}>
          <Input {...register("firstname")} />
        </FormField>
        <FormField label="Nachname" error={errorOf("lastname")}>
          <Input {...register("lastname")} />
        </FormField>
      </div>
      <FormField label="E-Mail" error={errorOf("email")}>
        <Input type="email" {...register("email")} />
      </FormField>
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
      <DialogFooter>
        <Button type="button" variant="secondary" onClick={onClose}>
          Abbrechen
        </Button>
        <Button type="submit" disabled={save.isPending}>
          Speichern
        </Button>
      </DialogFooter>
    </form>
  );
}

export function UsersTab() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [page, setPage] = useState(1);
  const filter = { name: useDebounced(name), email: useDebounced(email), page };
  const list = useQuery({ ...trpc.admin.users.list.queryOptions(filter), placeholderData: keepPreviousData });
  const setActive = useMutation(trpc.admin.users.setActive.mutationOptions());
  const remove = useMutation(trpc.admin.users.delete.mutationOptions());
  const [editing, setEditing] = useState<number | null>(null);
  const listKey = trpc.admin.users.list.queryKey(filter);

  if (list.isError) {
    return <LoadError what="Die Benutzer:innen" onRetry={() => void list.refetch()} />;
  }

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
  const onDelete = (user: UserRow) =>
    confirmDelete({
      detail: `${user.firstname} ${user.lastname} (${user.email}) wird mit allen Teilnahmen und Bestellungen gelöscht.`,
      run: async () => {
        await remove.mutateAsync({ id: user.id });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() });
      },
      success: MSG.userDeleted,
      failure: "Die Benutzerin / der Benutzer konnte nicht gelöscht werden.",
    });

  const data = list.data;
  return (
    <section aria-label="Benutzer:innen">
      <div className="mb-3 grid gap-3 sm:grid-cols-2">
        <FormField label="Nach Name filtern">
          <Input
            type="search"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
        <FormField label="Nach E-Mail filtern">
          <Input
            type="search"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
      </div>
      <div className="mb-3 flex justify-end">
        <ExportButtons
          path="/api/admin/exports/users"
          query={{ name: name.trim(), email: email.trim() }}
          what="Benutzer:innen"
        />
      </div>
      <DataTable
        label="Benutzer:innen"
        loading={list.isPending}
        empty="Keine Benutzer:innen gefunden."
        rows={data?.items ?? []}
        columns={[
          { header: "Name", cell: (u) => `${u.firstname} ${u.lastname}` },
          { header: "E-Mail", cell: (u) => u.email },
          { header: "Admin", cell: (u) => yesNo(u.admin) },
          {
            header: "Aktiv",
            cell: (u) => (
              <Switch
                checked={u.active}
                aria-label={`${u.firstname} ${u.lastname} aktiv`}
                onCheckedChange={(v) => void toggleActive(u, v)}
              />
            ),
          },
          { header: "Newsletter", cell: (u) => yesNo(u.newsletter) },
          { header: "Migration offen", cell: (u) => yesNo(u.migrationPending) },
          { header: "Teilnahmen", cell: (u) => u.participations.join(", ") || "–" },
          {
            header: "Aktionen",
            cell: (u) => (
              <RowActions
                name={`${u.firstname} ${u.lastname}`}
                onEdit={() => setEditing(u.id)}
                onDelete={() => void onDelete(u)}
              />
            ),
          },
        ]}
      />
      {data && <ServerPager data={data} onPage={setPage} />}
      {editing !== null && <UserDialog id={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
