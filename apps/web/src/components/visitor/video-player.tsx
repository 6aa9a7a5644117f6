import { useQuery } from "@tanstack/react-query";
import { PlayIcon } from "lucide-react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { trpc } from "@/lib/trpc";
import { useWatchTime, type WatchEvent } from "@/lib/watch-time/use-watch-time";

const CONSENT_KEY = "video-consent";
const listeners = new Set<() => void>();

/** The two-click consent, remembered for the browser session and shared by every player on the page. */
const consent = {
  get: () => sessionStorage.getItem(CONSENT_KEY) === "1",
  give() {
    sessionStorage.setItem(CONSENT_KEY, "1");
    for (const listener of listeners) {
      listener();
    }
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export interface PlayerVideo {
  url: string;
  embedUrl: string | null;
  comment: string;
}

/**
 * A privacy-friendly video: until the visitor agrees, only a placeholder with title and thumbnail from our
 * own server is shown and nothing is requested from the video host. The player then runs with `dnt=1`.
 */
export function VideoPlayer({
  video,
  label,
  onPlay,
  watch,
}: {
  video: PlayerVideo;
  label: string;
  /** after the consent click, when the player starts (records attendance) */
  onPlay?: () => void;
  /** the event (and package page) whose watch time this player reports */
  watch?: WatchEvent;
}) {
  const agreed = useSyncExternalStore(consent.subscribe, consent.get);
  const [started, setStarted] = useState(false);
  const player = useRef<HTMLIFrameElement>(null);
  useWatchTime(player, watch && { ...watch, videoUrl: video.url }, agreed && started);
  // the player replaces the button that had the focus: keyboard users continue in the player
  useEffect(() => {
    if (started) {
      player.current?.focus();
    }
  }, [started]);
  const preview = useQuery({
    ...trpc.video.getPreview.queryOptions({ url: video.url }),
    enabled: video.embedUrl !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const title = preview.data?.title ?? label;

  if (!video.embedUrl) {
    return (
      <p className="rounded-md bg-slate-100 p-4 text-sm text-slate-700">
        Dieses Video kann hier nicht abgespielt werden.{" "}
        <a href={video.url} target="_blank" rel="noopener noreferrer" className="underline">
          Video öffnen
          <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
        </a>
      </p>
    );
  }
  if (agreed && started) {
    return (
      <div className="aspect-video w-full overflow-hidden rounded-md bg-black">
        <iframe
          ref={player}
          src={`${video.embedUrl}&autoplay=1`}
          title={title}
          className="h-full w-full"
          allow="autoplay; fullscreen; picture-in-picture"
          allowFullScreen
        />
      </div>
    );
  }
  const thumbnail = preview.data?.thumbnailUrl;
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-md bg-slate-800 text-white">
      {/* dimmed so that white text stays readable (4.5:1) even on a white picture */}
      {thumbnail && (
        <img src={thumbnail} alt="" className="absolute inset-0 h-full w-full object-cover opacity-30" />
      )}
      <div className="relative flex h-full flex-col items-center justify-center gap-3 p-4 text-center">
        <p className="font-semibold drop-shadow">{title}</p>
        <button
          type="button"
          onClick={() => {
            consent.give();
            setStarted(true);
            onPlay?.();
          }}
          className="inline-flex items-center gap-2 rounded-full bg-white px-5 py-2.5 font-semibold text-slate-900 shadow hover:bg-slate-100"
        >
          <PlayIcon aria-hidden="true" className="size-5" />
          Video abspielen<span className="sr-only">: {title}</span>
        </button>
        {!agreed && (
          <p className="max-w-md text-xs drop-shadow">
            Beim Abspielen wird das Video von Vimeo geladen; dabei werden Daten an Vimeo übertragen. Ihre
            Zustimmung gilt bis zum Schließen des Browsers.
          </p>
        )}
      </div>
    </div>
  );
}
