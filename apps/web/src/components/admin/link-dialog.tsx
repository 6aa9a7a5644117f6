import type { Editor } from "@tiptap/react";
import { useRef } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { FormField, InlineField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useSchemaForm } from "@/lib/schema-form";

/** an empty address removes the link; anything else is linked, with https:// when it names no scheme */
const ZLinkInput = z.object({ href: z.string().trim(), asButton: z.boolean() });

const withProtocol = (href: string) => (/^[a-z][a-z0-9+.-]*:/i.test(href) ? href : `https://${href}`);

/**
 * Sets, changes or removes the link at the editor's selection. A dialog of ours rather than window.prompt:
 * labelled fields, German buttons, and focus goes back to the text after a change.
 */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = editor.getAttributes("link") as { href?: string; class?: string | null };
  const form = useSchemaForm({
    schema: ZLinkInput,
    defaultValues: { href: current.href ?? "", asButton: current.class === "button" },
  });
  const changed = useRef(false);

  const apply = form.submit(async ({ href, asButton }) => {
    const chain = editor.chain().extendMarkRange("link");
    if (href === "") {
      chain.unsetLink().run();
    } else {
      chain
        .setLink({ href: withProtocol(href), class: asButton ? "button" : null } as { href: string })
        .run();
    }
    changed.current = true;
    onClose();
  });

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
        <form
          onSubmit={(event) => {
            // React events bubble through portals: the template's own form must not submit as well
            event.stopPropagation();
            void apply(event);
          }}
          noValidate
          className="mt-4 flex flex-col gap-4"
        >
          <FormField label="Adresse des Links" error={form.errorOf("href")}>
            <Input type="url" inputMode="url" placeholder="https://" {...form.register("href")} />
          </FormField>
          <InlineField label="Als Button darstellen">
            <Checkbox {...form.register("asButton")} />
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
