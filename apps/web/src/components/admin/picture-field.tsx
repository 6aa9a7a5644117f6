import { ImageIcon, XIcon } from "lucide-react";
import { useId, useState } from "react";
import { type Control, Controller, type FieldPathByValue, type FieldValues } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { alerts, errorBody } from "@/lib/alerts";
import { uploadImage } from "@/lib/upload";

/** The picture of a react-hook-form form (the stored file name, or null). */
export function PictureField<V extends FieldValues>({
  control,
  name,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the form's parsed output type does not matter here
  control: Control<V, any, any>;
  name: FieldPathByValue<V, string | null>;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => <PictureUpload value={field.value} onChange={field.onChange} />}
    />
  );
}

/** Picture upload with progress and preview; the value is the stored file name. */
function PictureUpload({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (fileName: string | null) => void;
}) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    setProgress(0);
    try {
      onChange(await uploadImage(file, setProgress));
    } catch (error) {
      await alerts.error(errorBody(error));
    } finally {
      setProgress(null);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium text-slate-800" id={`${id}-label`}>
        Bild
      </span>
      <div className="flex items-center gap-4">
        {value ? (
          <img
            src={`/uploads/images/${value}`}
            alt="Vorschau des Bildes"
            className="h-20 w-32 rounded object-cover"
          />
        ) : (
          <div className="flex h-20 w-32 items-center justify-center rounded bg-slate-100 text-slate-500">
            <ImageIcon aria-hidden="true" />
          </div>
        )}
        <div className="flex flex-col gap-2">
          <label
            htmlFor={id}
            className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 focus-within:outline-2 focus-within:outline-brand-600"
          >
            Bild auswählen …
            <input
              id={id}
              type="file"
              accept="image/png,image/jpeg,image/webp"
              className="sr-only"
              aria-describedby={`${id}-hint`}
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </label>
          {value && (
            <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
              <XIcon aria-hidden="true" className="size-4" /> Bild entfernen
            </Button>
          )}
        </div>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        PNG, JPEG oder WebP, höchstens 5 MB.
      </p>
      {progress !== null && (
        <progress value={progress} max={1} aria-label="Hochladen" className="h-2 w-full">
          {Math.round(progress * 100)} %
        </progress>
      )}
    </div>
  );
}
