import { useMutation } from "@tanstack/react-query";
import { createContext, type ReactNode, type RefObject, useContext, useRef } from "react";
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
  const dirty = useRef(false);
  // Escape, a click beside the dialog or its close button would drop unsaved edits: asked first, as every
  // other destructive action is ("Abbrechen" is the explicit way to discard them)
  const dismiss = async () => {
    if (!dirty.current || (await confirmDiscard())) {
      close();
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && void dismiss()}>
      <DialogContent size={wide ? "3xl" : "xl"}>
        <DialogTitle>{title}</DialogTitle>
        {description && <DialogDescription>{description}</DialogDescription>}
        {defaultValues ? (
          <EditorForm {...props} defaultValues={defaultValues} dirty={dirty} />
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
  dirty,
}: ResourceEditorProps<V, S, R> & { defaultValues: V; dirty: RefObject<boolean> }) {
  const { close, saved } = useContext(EditorContext);
  const mutation = useMutation({ mutationFn: save });
  const form = useSchemaForm<V, S>({ schema, defaultValues, toInput, fieldOf });
  // read while rendering, so react-hook-form keeps it current
  dirty.current = form.formState.isDirty;
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
          <GuardedSubmit control={form.control} canSubmit={canSubmit} pending={form.submitting}>
            {submitLabel}
          </GuardedSubmit>
        ) : (
          <Button type="submit" disabled={form.submitting}>
            {submitLabel}
          </Button>
        )}
      </DialogFooter>
    </form>
  );
}

/** The question before unsaved edits are dropped. */
const confirmDiscard = () =>
  alerts.confirm({
    title: "Änderungen verwerfen?",
    detail: "Ihre Änderungen sind noch nicht gespeichert und gehen verloren, wenn Sie den Dialog schließen.",
    confirmLabel: "Verwerfen",
    cancelLabel: "Weiter bearbeiten",
  });

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
