import { cva, type VariantProps } from "class-variance-authority";
import { type ComponentProps, cloneElement, isValidElement } from "react";
import { cn } from "@/lib/utils";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:pointer-events-none disabled:opacity-60 cursor-pointer",
  {
    variants: {
      variant: {
        default: "bg-brand-700 text-white hover:bg-brand-900",
        secondary: "bg-white text-slate-900 border border-slate-300 hover:bg-slate-100",
        destructive: "bg-red-700 text-white hover:bg-red-800",
        ghost: "text-slate-800 hover:bg-slate-100",
        link: "text-brand-700 underline underline-offset-4 hover:text-brand-900",
      },
      size: {
        default: "h-10 px-4 py-2",
        sm: "h-9 px-3",
        lg: "h-11 px-6 text-base",
        icon: "h-10 w-10",
        /** a link inside running text */
        inline: "h-auto p-0",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

export interface ButtonProps extends ComponentProps<"button">, VariantProps<typeof buttonVariants> {
  /** render the child element (e.g. a Link) with the button's look */
  asChild?: boolean;
}

type Props = Record<string, unknown>;

/**
 * Renders its one child element with the button's props merged in (Radix's `Slot` in the few lines
 * `asChild` needs: classes joined, handlers both called, the child's own props first). Radix's Slot
 * weighed about 2 KB gzip on every first page (docs/performance/history.md, "Login route").
 */
function Slot({ children, ...slot }: ComponentProps<"button">) {
  if (!isValidElement<Props>(children)) {
    return null;
  }
  const own = children.props;
  const merged: Props = { ...slot, ...own };
  for (const [key, handler] of Object.entries(slot)) {
    const ownHandler = own[key];
    if (/^on[A-Z]/.test(key) && typeof handler === "function" && typeof ownHandler === "function") {
      merged[key] = (...args: unknown[]) => {
        ownHandler(...args);
        handler(...args);
      };
    }
  }
  merged.className = cn(slot.className, own.className as string | undefined);
  merged.style = { ...slot.style, ...(own.style as object | undefined) };
  return cloneElement(children, merged);
}

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      className={cn(buttonVariants({ variant, size }), className)}
      {...(asChild ? {} : { type: type ?? "button" })}
      {...props}
    />
  );
}
