import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, createContext, use, useCallback, useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils";

/** How the surrounding Dialog closes (what Escape does); every dialog of ours is controlled. */
const CloseContext = createContext<() => void>(() => undefined);

/** The open dialogs' contents and how each closes, for an Escape pressed in one of them (see DialogContent). */
const openDialogs = new Map<Element, () => void>();

export function Dialog({ onOpenChange, ...props }: ComponentProps<typeof DialogPrimitive.Root>) {
  return (
    <CloseContext value={() => onOpenChange?.(false)}>
      <DialogPrimitive.Root onOpenChange={onOpenChange} {...props} />
    </CloseContext>
  );
}
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

const DIALOG_WIDTHS = { md: "max-w-lg", xl: "max-w-xl", "3xl": "max-w-3xl" };

/**
 * A modal dialog: traps focus and closes on Escape (Radix). On closing, focus returns to the element that had
 * it when the dialog opened: Radix returns it only to a DialogTrigger, and most of our dialogs open from
 * state (a table row's button, the alert system).
 *
 * Escape closes the dialog it was pressed in. Radix hands Escape to a dialog opened over another (the link
 * dialog over a template, an alert over a form) one render after that dialog took the focus; an Escape in
 * between went to the dialog below and closed both. So a dialog leaves an Escape from outside itself to the
 * open dialog it came from.
 */
export function DialogContent({
  className,
  children,
  hideClose = false,
  size = "md",
  onCloseAutoFocus,
  onEscapeKeyDown,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & {
  hideClose?: boolean;
  size?: keyof typeof DIALOG_WIDTHS;
}) {
  // read on the first render, before Radix moves the focus into the dialog
  const [opener] = useState(() => document.activeElement);
  const close = use(CloseContext);
  const latestClose = useRef(close);
  useEffect(() => {
    latestClose.current = close;
  });
  // the content mounts a render after this component (Radix's portal waits for the client)
  const content = useRef<HTMLDivElement | null>(null);
  const register = useCallback((element: HTMLDivElement | null) => {
    content.current = element;
    if (!element) {
      return;
    }
    openDialogs.set(element, () => latestClose.current());
    return () => {
      openDialogs.delete(element);
      content.current = null;
    };
  }, []);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
      <DialogPrimitive.Content
        ref={register}
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
        onEscapeKeyDown={(event) => {
          onEscapeKeyDown?.(event);
          const target = event.target;
          if (
            event.defaultPrevented ||
            !(target instanceof Element) ||
            target === target.ownerDocument.body ||
            content.current?.contains(target)
          ) {
            return;
          }
          event.preventDefault();
          for (const [element, closeOther] of openDialogs) {
            if (element.contains(target)) {
              closeOther();
            }
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
