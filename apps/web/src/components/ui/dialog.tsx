import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, useState } from "react";
import { cn } from "@/lib/utils";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

const DIALOG_WIDTHS = { md: "max-w-lg", xl: "max-w-xl", "3xl": "max-w-3xl" };

/**
 * A modal dialog: traps focus and closes on Escape (Radix). On closing, focus returns to the element that had
 * it when the dialog opened: Radix returns it only to a DialogTrigger, and most of our dialogs open from
 * state (a table row's button, the alert system).
 * Escape closes only the topmost dialog (Radix's layer stack), also right after it opened: a real key is an
 * input task of its own and comes after the render that makes the new dialog the top layer (e2e
 * keyboard-races.spec.ts, decision 73).
 */
export function DialogContent({
  className,
  children,
  hideClose = false,
  size = "md",
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & {
  hideClose?: boolean;
  size?: keyof typeof DIALOG_WIDTHS;
}) {
  // read on the first render, before Radix moves the focus into the dialog
  const [opener] = useState(() => document.activeElement);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
      <DialogPrimitive.Content
        className={cn(
          "fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl",
          DIALOG_WIDTHS[size],
          className,
        )}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (
            !event.defaultPrevented &&
            opener instanceof HTMLElement &&
            opener !== document.body &&
            opener.isConnected
          ) {
            event.preventDefault();
            opener.focus();
          }
        }}
        {...props}
      >
        {children}
        {!hideClose && (
          <DialogPrimitive.Close className="absolute right-3 top-3 rounded p-1 text-slate-600 hover:bg-slate-100">
            <XIcon aria-hidden="true" className="size-5" />
            <span className="sr-only">Schließen</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      className={cn("pr-8 text-lg font-semibold text-slate-900", className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn("mt-2 text-sm text-slate-700", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("mt-6 flex flex-wrap justify-end gap-2", className)} {...props} />;
}
