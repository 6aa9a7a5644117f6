import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

const statusText = cva("", {
  variants: {
    tone: {
      good: "text-green-800",
      neutral: "text-slate-700",
      bad: "font-semibold text-red-700",
    },
  },
});

export type StatusTone = NonNullable<VariantProps<typeof statusText>["tone"]>;

/** A status in a table cell, coloured by how it went (the label says it too, for those who cannot see it). */
export function StatusText({
  tone,
  className,
  ...props
}: ComponentProps<"span"> & { tone?: StatusTone | undefined }) {
  return <span className={cn(statusText({ tone }), className)} {...props} />;
}
