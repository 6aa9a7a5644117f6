import { TriangleAlertIcon } from "lucide-react";
import { cloneElement, type ReactElement, useId } from "react";
import { cn } from "@/lib/utils";
import { Label } from "./label";

interface FormFieldProps {
  label: string;
  /** the field's error message; tied to the control with aria-describedby and announced */
  error?: string | undefined;
  hint?: string;
  /** a warning about the value that does not refuse it; tied to the control like the hint */
  warning?: string | undefined;
  className?: string;
  children: ReactElement<Record<string, unknown>>;
}

/** Label, control, hint and error, wired for assistive technology. */
export function FormField({ label, error, hint, warning, className, children }: FormFieldProps) {
  const id = useId();
  const controlId = (children.props.id as string | undefined) ?? `${id}-control`;
  const hintId = hint ? `${id}-hint` : undefined;
  const warningId = warning ? `${id}-warning` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, warningId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {cloneElement(children, {
        id: controlId,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-700">
          {hint}
        </p>
      )}
      {warning && (
        <p id={warningId} className="flex gap-1.5 text-sm text-amber-900">
          <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
          {warning}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A checkbox or switch with its label beside it. */
export function InlineField({
  label,
  children,
}: {
  label: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      {cloneElement(children, { id })}
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}
