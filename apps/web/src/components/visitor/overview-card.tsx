import { OVERVIEW_DESCRIPTION_CUT } from "@app/shared";
import type { ReactNode } from "react";
import { ExpandableText } from "./expandable-text";
import { Picture } from "./picture";

interface OverviewCardProps {
  headingId: string;
  title: string;
  picture: string | null;
  pictureClassName: string;
  description: string;
  /** a line above the title (dates, congress) */
  meta: ReactNode;
  /** below the title (status badges) */
  badges?: ReactNode;
  actions: ReactNode;
}

/** The card of an event or package on the overview: picture, title, cut description, actions at the bottom. */
export function OverviewCard(props: OverviewCardProps) {
  return (
    <article
      aria-labelledby={props.headingId}
      className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <Picture fileName={props.picture} className={props.pictureClassName} />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div>
          {props.meta}
          <h3 id={props.headingId} className="mt-1 text-lg font-semibold text-slate-900">
            {props.title}
          </h3>
          {props.badges}
        </div>
        <ExpandableText text={props.description} max={OVERVIEW_DESCRIPTION_CUT} />
        <div className="mt-auto pt-2">{props.actions}</div>
      </div>
    </article>
  );
}
