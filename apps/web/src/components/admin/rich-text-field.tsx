import { lazy, Suspense } from "react";
import { type Control, Controller, type FieldPathByValue, type FieldValues } from "react-hook-form";

// the editor is large: it loads only when a form with it opens
const RichTextEditor = lazy(() =>
  import("@/components/admin/rich-text-editor").then((m) => ({ default: m.RichTextEditor })),
);

/** An HTML value of a react-hook-form form, edited in the rich-text editor (loaded on first use). */
export function RichTextField<V extends FieldValues>({
  control,
  name,
  label,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the form's parsed output type does not matter here
  control: Control<V, any, any>;
  name: FieldPathByValue<V, string>;
  label: string;
}) {
  return (
    <Suspense fallback={<p role="status">Editor wird geladen …</p>}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => <RichTextEditor label={label} value={field.value} onChange={field.onChange} />}
      />
    </Suspense>
  );
}
