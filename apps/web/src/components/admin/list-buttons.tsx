import { PlusIcon, XIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

/** Adds an entry to a list inside a form (a parameter, a day, a video). */
export function AddButton({
  onClick,
  children,
  small = true,
}: {
  onClick: () => void;
  children: ReactNode;
  small?: boolean;
}) {
  return (
    <Button
      type="button"
      variant="secondary"
      size={small ? "sm" : "default"}
      className="self-start"
      onClick={onClick}
    >
      <PlusIcon aria-hidden="true" className="size-4" /> {children}
    </Button>
  );
}

/** Removes an entry of a list inside a form; `label` names it for screen readers. */
export function RemoveButton({ onClick, label }: { onClick: () => void; label: string }) {
  return (
    <Button type="button" variant="ghost" size="icon" aria-label={label} onClick={onClick}>
      <XIcon aria-hidden="true" className="size-4" />
    </Button>
  );
}
