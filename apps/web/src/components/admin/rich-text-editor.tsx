import Image from "@tiptap/extension-image";
import Link from "@tiptap/extension-link";
import { TextSelection } from "@tiptap/pm/state";
import type { EditorView } from "@tiptap/pm/view";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  BoldIcon,
  Heading2Icon,
  ImageIcon,
  IndentIcon,
  ItalicIcon,
  LinkIcon,
  ListIcon,
  ListOrderedIcon,
  OutdentIcon,
  Redo2Icon,
  UnderlineIcon,
  Undo2Icon,
} from "lucide-react";
import { Toolbar } from "radix-ui";
import { type ReactNode, useRef, useState } from "react";
import { alerts, errorBody } from "@/lib/alerts";
import { uploadImage } from "@/lib/upload";
import { cn } from "@/lib/utils";
import { LinkDialog } from "./link-dialog";

/** Links may carry the class "button": the mail layout draws them as a button. */
const ButtonLink = Link.extend({
  addAttributes() {
    return { ...this.parent?.(), class: { default: null } };
  },
});

/**
 * The browser reports a changed selection by a selectionchange event, which can come after the next key or
 * after the focus has moved on (keys jump the queue on a busy machine). ProseMirror then acts on the
 * selection from before: Enter right after Ctrl+End split the text where the cursor had been, and a word
 * selected with Shift+Home just before Shift+Tab into the toolbar stayed plain, because ProseMirror ignores a
 * selectionchange once it has lost the focus. So before each key and on blur the editor takes over the
 * selection the document shows (both reproduced with real keys: e2e keyboard-races.spec.ts, ADR 0077).
 * Not during an IME composition, not when a mark waits for the next letter (Ctrl+B on no selection) and not
 * for node or gap selections, whose DOM selection is drawn differently.
 */
function takeDocumentSelection(view: EditorView): void {
  const { doc, selection: current, storedMarks } = view.state;
  const selection = view.dom.ownerDocument.getSelection();
  const inEditor = (node: Node | null | undefined): node is Node => !!node && view.dom.contains(node);
  if (
    view.composing ||
    storedMarks ||
    !(current instanceof TextSelection) ||
    !selection ||
    !inEditor(selection.anchorNode) ||
    !inEditor(selection.focusNode)
  ) {
    return;
  }
  const anchor = view.posAtDOM(selection.anchorNode, selection.anchorOffset);
  const head = view.posAtDOM(selection.focusNode, selection.focusOffset);
  if (anchor !== current.anchor || head !== current.head) {
    view.dispatch(view.state.tr.setSelection(TextSelection.between(doc.resolve(anchor), doc.resolve(head))));
  }
}

function ToolButton({
  label,
  onClick,
  active = false,
  disabled = false,
  children,
}: {
  label: string;
  onClick: () => void;
  active?: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Toolbar.Button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={active}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        "rounded p-1.5 hover:bg-slate-200 disabled:opacity-40",
        active ? "bg-slate-200 text-slate-900" : "text-slate-700",
      )}
    >
      {children}
    </Toolbar.Button>
  );
}

/**
 * The template editor with the toolbar of the spec. The toolbar is one tab stop; the arrow keys, Home and End
 * move between its buttons (WAI-ARIA toolbar pattern, Radix roving focus).
 */
export function RichTextEditor({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (html: string) => void;
  label: string;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, heading: { levels: [1, 2, 3] } }),
      ButtonLink.configure({ defaultProtocol: "https", openOnClick: false, autolink: true }),
      Image,
    ],
    content: value,
    editorProps: {
      // returning nothing leaves the event to ProseMirror
      handleDOMEvents: { keydown: takeDocumentSelection, blur: takeDocumentSelection },
      attributes: {
        "aria-label": label,
        class:
          "prose-mail min-h-48 p-3 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive("bold") ?? false,
      italic: e?.isActive("italic") ?? false,
      underline: e?.isActive("underline") ?? false,
      heading: e?.isActive("heading", { level: 2 }) ?? false,
      bullet: e?.isActive("bulletList") ?? false,
      ordered: e?.isActive("orderedList") ?? false,
      link: e?.isActive("link") ?? false,
      canUndo: e?.can().undo() ?? false,
      canRedo: e?.can().redo() ?? false,
      canIndent: e?.can().sinkListItem("listItem") ?? false,
      canOutdent: e?.can().liftListItem("listItem") ?? false,
    }),
  });
  if (!editor || !state) {
    return null;
  }
  const chain = () => editor.chain().focus();
  const onImage = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    try {
      const fileName = await uploadImage(file, () => undefined);
      chain()
        .setImage({ src: `${window.location.origin}/uploads/images/${fileName}`, alt: "" })
        .run();
    } catch (error) {
      await alerts.error(errorBody(error));
    }
  };
  return (
    <div className="rounded-md border border-slate-300">
      <Toolbar.Root
        aria-label="Formatierung"
        className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1"
      >
        <ToolButton label="Rückgängig" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
          <Undo2Icon className="size-4" />
        </ToolButton>
        <ToolButton label="Wiederholen" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
          <Redo2Icon className="size-4" />
        </ToolButton>
        <ToolButton
          label="Überschrift"
          active={state.heading}
          onClick={() => chain().toggleHeading({ level: 2 }).run()}
        >
          <Heading2Icon className="size-4" />
        </ToolButton>
        <ToolButton label="Fett" active={state.bold} onClick={() => chain().toggleBold().run()}>
          <BoldIcon className="size-4" />
        </ToolButton>
        <ToolButton label="Kursiv" active={state.italic} onClick={() => chain().toggleItalic().run()}>
          <ItalicIcon className="size-4" />
        </ToolButton>
        <ToolButton
          label="Unterstrichen"
          active={state.underline}
          onClick={() => chain().toggleUnderline().run()}
        >
          <UnderlineIcon className="size-4" />
        </ToolButton>
        <ToolButton
          label="Einrücken"
          disabled={!state.canIndent}
          onClick={() => chain().sinkListItem("listItem").run()}
        >
          <IndentIcon className="size-4" />
        </ToolButton>
        <ToolButton
          label="Ausrücken"
          disabled={!state.canOutdent}
          onClick={() => chain().liftListItem("listItem").run()}
        >
          <OutdentIcon className="size-4" />
        </ToolButton>
        <ToolButton label="Aufzählung" active={state.bullet} onClick={() => chain().toggleBulletList().run()}>
          <ListIcon className="size-4" />
        </ToolButton>
        <ToolButton
          label="Nummerierte Liste"
          active={state.ordered}
          onClick={() => chain().toggleOrderedList().run()}
        >
          <ListOrderedIcon className="size-4" />
        </ToolButton>
        <ToolButton label="Bild hochladen" onClick={() => fileInput.current?.click()}>
          <ImageIcon className="size-4" />
        </ToolButton>
        <ToolButton label="Link" active={state.link} onClick={() => setLinkOpen(true)}>
          <LinkIcon className="size-4" />
        </ToolButton>
        <input
          ref={fileInput}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => void onImage(e.target.files?.[0])}
        />
      </Toolbar.Root>
      <EditorContent editor={editor} />
      {linkOpen && <LinkDialog editor={editor} onClose={() => setLinkOpen(false)} />}
    </div>
  );
}
