import { useMutation } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext } from "react";
import { type Control, type FieldValues, useWatch } from "react-hook-form";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { alerts } from "@/lib/alerts";
import { type SchemaFormOptions, useSchemaForm } from "@/lib/schema-form";

export type SchemaForm<V extends FieldValues, S extends z.ZodType> = ReturnType<typeof useSchemaForm<V, S>>;

/** What the resource around an editor does once it saved: reload the list, close the dialog. */
export const EditorContext = createContext<{ close: () => void; saved: () => Promise<void> }>({
  close: () => undefined,
  saved: async () => undefined,
});

export interface ResourceEditorProps<V extends FieldValues, S extends z.ZodType, R>
  extends Omit<SchemaFormOptions<V, S>, "defaultValues"> {
  title: string;
  description?: ReactNode;
  /** the form's values; undefined while the record loads */
  defaultValues: V | undefined;
  /** the procedure that takes the parsed input */
  save: (input: z.output<S>) => Promise<R>;
  /** the success alert (spec texts) */
  success: string | ((result: R) => string);
  /** after the success alert, before the dialog closes */
  afterSave?: (result: R) => Promise<void>;
  submitLabel?: string;
  /** the submit button stays off until this holds */
  canSubmit?: (values: V) => boolean;
  wide?: boolean;
  /** the fields (and any extra buttons) of the form */
  children: (form: SchemaForm<V, S>) => ReactNode;
}

/**
 * The edit dialog of an admin resource: title, the form's fields on `useSchemaForm` (client validation with
 * the shared schema, server field errors under their fields), Abbrechen and Speichern; a saved record
 * shows the success alert, reloads the list and closes the dialog.
 */
export function ResourceEditor<V extends FieldValues, S extends z.ZodType, R>(
  props: ResourceEditorProps<V, S, R>,
) {
  const { close } = useContext(EditorContext);
  const { title, description, defaultValues, wide = false } = props;
  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent size={wide ? "3xl" : "xl"}>
        <DialogTitle>{title}</DialogTitle>
        {description && <DialogDescription>{description}</DialogDescription>}
        {defaultValues ? (
          <EditorForm {...props} defaultValues={defaultValues} />
        ) : (
          <p role="status">Wird geladen …</p>
        )}
      </DialogContent>
    </Dialog>
  );
}

function EditorForm<V extends FieldValues, S extends z.ZodType, R>({
  schema,
  defaultValues,
  toInput,
  fieldOf,
  save,
  success,
  afterSave,
  submitLabel = "Speichern",
  canSubmit,
  children,
}: ResourceEditorProps<V, S, R> & { defaultValues: V }) {
  const { close, saved } = useContext(EditorContext);
  const mutation = useMutation({ mutationFn: save });
  const form = useSchemaForm<V, S>({ schema, defaultValues, toInput, fieldOf });
  const onSubmit = form.submit(async (input) => {
    const result = await mutation.mutateAsync(input);
    await saved();
    alerts.success(typeof success === "string" ? success : success(result));
    await afterSave?.(result);
    close();
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
      {children(form)}
      <DialogFooter>
        <Button type="button" variant="secondary" onClick={close}>
          Abbrechen
        </Button>
        {canSubmit ? (
          <GuardedSubmit control={form.control} canSubmit={canSubmit} pending={mutation.isPending}>
            {submitLabel}
          </GuardedSubmit>
        ) : (
          <Button type="submit" disabled={mutation.isPending}>
            {submitLabel}
          </Button>
        )}
      </DialogFooter>
    </form>
  );
}

/** a submit button that follows the values (only where asked: it renders on every keystroke) */
function GuardedSubmit<V extends FieldValues>({
  control,
  canSubmit,
  pending,
  children,
}: {
  control: Control<V, unknown, unknown>;
  canSubmit: (values: V) => boolean;
  pending: boolean;
  children: ReactNode;
}) {
  const values = useWatch({ control }) as V;
  return (
    <Button type="submit" disabled={pending || !canSubmit(values)}>
      {children}
    </Button>
  );
}
