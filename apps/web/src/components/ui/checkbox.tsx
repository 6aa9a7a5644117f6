import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

type Props = Omit<ComponentProps<"input">, "type"> & {
  /** for a checkbox held in state; a form's checkbox takes react-hook-form's `register` instead */
  onCheckedChange?: (checked: boolean) => void;
};

/**
 * A native checkbox in our colours: keyboard, forms and screen readers work without script, and the
 * registration on the first page needs no extra library.
 */
export function Checkbox({ className, onCheckedChange, onChange, ...props }: Props) {
  return (
    <input
      type="checkbox"
      onChange={(event) => {
        onChange?.(event);
        onCheckedChange?.(event.target.checked);
      }}
      className={cn(
        "mt-0.5 size-5 shrink-0 cursor-pointer accent-brand-600 aria-invalid:outline-2 aria-invalid:outline-red-700",
        className,
      )}
      {...props}
    />
  );
}
