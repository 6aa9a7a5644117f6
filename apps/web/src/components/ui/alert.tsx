import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

export const alertVariants = cva("rounded-md border px-4 py-3 text-sm", {
  variants: {
    mode: {
      normal: "border-slate-300 bg-white text-slate-900",
      success: "border-green-700 bg-green-50 text-green-900",
      error: "border-red-700 bg-red-50 text-red-900",
      info: "border-brand-600 bg-brand-50 text-brand-900",
      question: "border-amber-600 bg-amber-50 text-amber-950",
    },
  },
  defaultVariants: { mode: "normal" },
});

export function Alert({
  className,
  mode,
  ...props
}: ComponentProps<"div"> & VariantProps<typeof alertVariants>) {
  return <div className={cn(alertVariants({ mode }), className)} {...props} />;
}
