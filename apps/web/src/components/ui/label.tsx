import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * A native label. Radix's Label adds only the prevention of text selection on a double click, and with it
 * its Slot (about 2 KB gzip on every first page, docs/performance/history.md "Login route").
 */
export function Label({ className, ...props }: ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: the control is tied by htmlFor at every use
  return <label className={cn("text-sm font-medium text-slate-800", className)} {...props} />;
}
