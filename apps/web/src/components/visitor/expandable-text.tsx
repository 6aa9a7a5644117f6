import { cutText } from "@app/shared";
import { useId, useState } from "react";

/** A description cut at `max` characters with a more/less toggle. */
export function ExpandableText({ text, max }: { text: string; max: number }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const short = cutText(text, max);
  if (!short.cut) {
    return <p className="whitespace-pre-line text-slate-700">{text}</p>;
  }
  return (
    <div>
      <p id={id} className="whitespace-pre-line text-slate-700">
        {open ? text : short.text}
      </p>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((v) => !v)}
        className="mt-1 text-sm font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900"
      >
        {open ? "weniger" : "mehr"}
      </button>
    </div>
  );
}
