import { HEARTBEAT_INTERVAL_SECONDS } from "@app/shared";
import { type RefObject, useEffect } from "react";
import { queryClient, trpc, trpcClient } from "../trpc";
import { LivePlaying, PlayedRanges } from "./played-ranges";
import { presenceChecks } from "./presence-check";

/** Whose watch time a page's players report: the event, and the package page they play on. */
export interface WatchEvent {
  congressId: number;
  packageId?: number | undefined;
}

/** One player's: the event (and the package page) and the video's address. */
export interface WatchTarget extends WatchEvent {
  videoUrl: string;
}

/**
 * Reports watch time for Fortbildung (ADR 0104, ADR 0126) while the consented player runs: Vimeo's SDK
 * (loaded with the first played video) tells play, pause, seeks, positions, the end and the speed. While
 * the video plays in a visible tab, a heartbeat goes at least once a minute with the stretches played;
 * one more on pause, end, a hidden tab and leaving the page (a `keepalive` request, which outlives the page
 * as `sendBeacon` would and carries the session's header). A start of playback sends an empty one, which
 * starts the server's wall clock. Failures are ignored: the video must never stop for the record's sake.
 * An answer that asks a presence check hands it to the page's prompt (`presenceChecks`, ADR 0109).
 */
export function useWatchTime(
  iframe: RefObject<HTMLIFrameElement | null>,
  target: WatchTarget | undefined,
  running: boolean,
): void {
  const congressId = target?.congressId;
  const packageId = target?.packageId;
  const videoUrl = target?.videoUrl;
  useEffect(() => {
    const element = iframe.current;
    if (!running || congressId === undefined || videoUrl === undefined || !element) {
      return;
    }
    const ranges = new PlayedRanges();
    const live = new LivePlaying();
    let isLive = false;
    let playing = false;
    /** this player in the page's presence-check store, which tells the prompt whether a video plays */
    const token = {};
    const setPlaying = (value: boolean) => {
      playing = value;
      presenceChecks.setPlaying(token, value);
    };
    let rate = 1;
    let disposed = false;
    const visible = () => document.visibilityState === "visible";

    // One heartbeat of a player at a time: two at once (a pause at the minute's heartbeat, batched into
    // one request) would race for the video's wall-clock budget, and the one with nothing new could take
    // it. The last one (keepalive, the page is going) goes at once.
    let inFlight: Promise<unknown> = Promise.resolve();
    const send = (keepalive: boolean, start = false) => {
      const liveSeconds = isLive ? Math.round(live.drain()) : 0;
      const played = isLive ? [] : ranges.drain();
      if (!start && played.length === 0 && liveSeconds === 0) {
        return;
      }
      const beat = () =>
        trpcClient.attendance.heartbeat
          .mutate(
            { congressId, packageId, videoUrl, ranges: played, live: isLive, liveSeconds },
            { context: { keepalive } },
          )
          .then(({ presenceCheck }) => {
            if (presenceCheck) {
              presenceChecks.offer(presenceCheck);
            }
            // the page's Fortbildung line counts up with what was credited; the next heartbeat does not
            // wait for it
            void queryClient.invalidateQueries({
              queryKey: trpc.fortbildung.getMyDays.queryKey({ congressId }),
            });
          })
          .catch(() => undefined);
      inFlight = keepalive ? beat() : inFlight.then(beat);
    };
    const stop = (keepalive: boolean) => {
      ranges.pause();
      live.pause();
      send(keepalive);
    };
    const resume = () => {
      if (playing && visible()) {
        live.play();
        send(false, true);
      }
    };

    const timer = window.setInterval(() => {
      if (playing && visible()) {
        send(false);
      }
    }, HEARTBEAT_INTERVAL_SECONDS * 1000);
    const onVisibility = () => (visible() ? resume() : stop(true));
    const onPageHide = () => stop(true);
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);

    let player: import("@vimeo/player").default | undefined;
    const connect = async () => {
      const { default: Player } = await import("@vimeo/player");
      if (disposed) {
        return;
      }
      const p = new Player(element);
      player = p;
      p.getDuration().then(
        (duration) => {
          isLive = !(Number.isFinite(duration) && duration > 0);
        },
        () => undefined,
      );
      const started = () => {
        if (!playing) {
          setPlaying(true);
          resume();
        }
      };
      p.on("play", started);
      // an autoplaying video may have started before the SDK listened: its "play" came too early
      p.getPaused().then(
        (paused) => !paused && started(),
        () => undefined,
      );
      p.on("timeupdate", ({ seconds }: { seconds: number }) => {
        if (playing && visible()) {
          ranges.observe(seconds, rate);
        }
      });
      p.on("seeked", () => ranges.pause());
      p.on("playbackratechange", ({ playbackRate }: { playbackRate: number }) => {
        rate = playbackRate;
      });
      const ended = () => {
        setPlaying(false);
        stop(false);
      };
      p.on("pause", ended);
      p.on("ended", ended);
    };
    // a player the SDK cannot drive (another host, a failed load) plays on without a record
    connect().catch(() => undefined);

    return () => {
      disposed = true;
      setPlaying(false);
      stop(true);
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
      player?.off("play");
      player?.off("timeupdate");
      player?.off("seeked");
      player?.off("playbackratechange");
      player?.off("pause");
      player?.off("ended");
    };
  }, [iframe, running, congressId, packageId, videoUrl]);
}
