import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

export function Textarea({ className, rows = 4, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      rows={rows}
      className={cn(
        "rounded-md border border-slate-300 px-3 py-2 text-sm aria-invalid:border-red-700",
        className,
      )}
      {...props}
    />
  );
}
