import { IMAGE_TYPES, imageFileProblem } from "@app/shared";
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
  label = "Bild",
}: {
  // biome-ignore lint/suspicious/noExplicitAny: the form's parsed output type does not matter here
  control: Control<V, any, any>;
  name: FieldPathByValue<V, string | null>;
  label?: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => <PictureUpload value={field.value} onChange={field.onChange} label={label} />}
    />
  );
}

/** Picture upload with progress and preview; the value is the stored file name. */
function PictureUpload({
  value,
  onChange,
  label,
}: {
  value: string | null;
  onChange: (fileName: string | null) => void;
  label: string;
}) {
  const id = useId();
  // a form with more than one picture (the certificates' logo and signature) names each one
  const named = label !== "Bild";
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    // a file the server would refuse is not sent at all (5 MB would go up in full before the refusal)
    const found = imageFileProblem(file);
    setProblem(found);
    if (found) {
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
        {label}
      </span>
      <div className="flex items-center gap-4">
        {value ? (
          <img
            src={`/uploads/images/${value}`}
            alt={named ? `Vorschau: ${label}` : "Vorschau des Bildes"}
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
            Bild auswählen …{named && <span className="sr-only">: {label}</span>}
            <input
              id={id}
              type="file"
              accept={IMAGE_TYPES.join(",")}
              className="sr-only"
              aria-describedby={problem ? `${id}-hint ${id}-error` : `${id}-hint`}
              aria-invalid={problem ? true : undefined}
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                // the same file chosen again after a refusal is a change too
                e.target.value = "";
              }}
            />
          </label>
          {value && (
            <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
              <XIcon aria-hidden="true" className="size-4" /> Bild entfernen
              {named && <span className="sr-only">: {label}</span>}
            </Button>
          )}
        </div>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        PNG, JPEG oder WebP, höchstens 5 MB.
      </p>
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {progress !== null && (
        <progress value={progress} max={1} aria-label="Hochladen" className="h-2 w-full">
          {Math.round(progress * 100)} %
        </progress>
      )}
    </div>
  );
}
