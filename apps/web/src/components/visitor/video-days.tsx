import { Link } from "@tanstack/react-router";
import type { PlayableDay } from "@/lib/types";
import type { WatchEvent } from "@/lib/watch-time/use-watch-time";
import { PresenceCheckPrompt } from "./presence-check-prompt";
import { VideoPlayer } from "./video-player";

/** The days of an event or package, each with its videos. */
export function VideoDays({
  days,
  emptyText,
  onPlay,
  watch,
}: {
  days: PlayableDay[];
  emptyText: string;
  /** a video started (after the consent click) */
  onPlay?: () => void;
  /** whose watch time the players report (Fortbildung) */
  watch?: WatchEvent;
}) {
  if (days.length === 0) {
    return <p className="text-slate-700">{emptyText}</p>;
  }
  return (
    <div className="flex flex-col gap-10">
      {watch && <PresenceCheckPrompt />}
      {watch && (
        <p className="text-sm text-slate-600">
          Für Ihre Teilnahmebescheinigung erfassen wir, wie lange Sie die Videos ansehen.{" "}
          <Link to="/datenschutz" className="text-brand-700 underline underline-offset-4">
            Mehr dazu in der Datenschutzerklärung
          </Link>
        </p>
      )}
      {days.map((day, dayIndex) => (
        // days have no id of their own; their order is fixed by the editor
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <section key={dayIndex} aria-labelledby={`day-${dayIndex}`}>
          <h2 id={`day-${dayIndex}`} className="mb-4 text-xl font-semibold text-slate-900">
            {day.name}
          </h2>
          {day.videos.length === 0 ? (
            <p className="text-slate-700">Für diesen Tag sind noch keine Videos eingestellt.</p>
          ) : (
            <ul className="grid gap-6 md:grid-cols-2">
              {day.videos.map((video, videoIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the same video may appear twice in a day
                <li key={videoIndex} className="flex flex-col gap-2">
                  <VideoPlayer
                    video={video}
                    label={video.comment || `Video ${videoIndex + 1}`}
                    onPlay={onPlay}
                    watch={watch}
                  />
                  {video.comment && <p className="text-sm text-slate-700">{video.comment}</p>}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
