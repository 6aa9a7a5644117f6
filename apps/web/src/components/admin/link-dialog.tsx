import type { Editor } from "@tiptap/react";
import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { FormField, InlineField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

const withProtocol = (href: string) => (/^[a-z][a-z0-9+.-]*:/i.test(href) ? href : `https://${href}`);

/**
 * Sets, changes or removes the link at the editor's selection. A dialog of ours rather than window.prompt:
 * labelled fields, German buttons, and focus goes back to the text after a change.
 */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = editor.getAttributes("link") as { href?: string; class?: string | null };
  const [href, setHref] = useState(current.href ?? "");
  const [asButton, setAsButton] = useState(current.class === "button");
  const changed = useRef(false);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    // React events bubble through portals: the template's own form must not submit as well
    event.stopPropagation();
    const target = href.trim();
    const chain = editor.chain().extendMarkRange("link");
    if (target === "") {
      chain.unsetLink().run();
    } else {
      chain
        .setLink({ href: withProtocol(target), class: asButton ? "button" : null } as { href: string })
        .run();
    }
    changed.current = true;
    onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          // after a change the writer continues in the text; after Abbrechen focus returns to the toolbar
          if (changed.current) {
            event.preventDefault();
            editor.commands.focus();
          }
        }}
      >
        <DialogTitle>{current.href ? "Link bearbeiten" : "Link einfügen"}</DialogTitle>
        <DialogDescription>Leer lassen, um den Link zu entfernen.</DialogDescription>
        <form onSubmit={apply} noValidate className="mt-4 flex flex-col gap-4">
          <FormField label="Adresse des Links">
            <Input
              type="url"
              inputMode="url"
              placeholder="https://"
              value={href}
              onChange={(e) => setHref(e.target.value)}
            />
          </FormField>
          <InlineField label="Als Button darstellen">
            <Checkbox checked={asButton} onCheckedChange={setAsButton} />
          </InlineField>
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit">Übernehmen</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
