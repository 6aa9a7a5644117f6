import type { BrowserContext } from "@playwright/test";

/**
 * Vimeo's player, faked at the wire (ADR 0110): every request to https://player.vimeo.com is answered
 * with a page that speaks the player's postMessage protocol as Vimeo's does, so `@vimeo/player` runs
 * unchanged in the app. The SDK posts `{method, value}` (`ping`, `addEventListener`, `getDuration`,
 * `getPaused`, `play`, `setCurrentTime`, …) and waits for `{method, value}` replies and `{event, data}`
 * events (only those it listens to); `ready` opens the conversation. Playback is simulated on the page's
 * timers, so Playwright's clock (`page.clock`) drives it: `timeupdate` four times a second with
 * `{seconds, percent, duration}`, `pause`, `seeked`, `ended`, `playbackratechange`. With `autoplay=1` in
 * its address it starts playing at once, as the real player does once the video has loaded (possibly
 * before the SDK listens). Its controls are ours: "Abspielen", "Pause", "Springen" to a position in
 * seconds and "Geschwindigkeit", as a viewer would use the real player's.
 */
export async function fakeVimeoPlayer(context: BrowserContext, durations: Record<string, number>) {
  await context.route("https://player.vimeo.com/**", (route) => {
    const url = new URL(route.request().url());
    const id = url.pathname.match(/^\/video\/(\d+)$/)?.[1];
    if (!id) {
      return route.fulfill({ status: 404, body: "" });
    }
    return route.fulfill({
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: playerPage(id, durations[id] ?? 600),
    });
  });
}

function playerPage(id: string, duration: number): string {
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Vimeo-Player ${id}</title></head>
<body style="margin:0;font:14px sans-serif;background:#111;color:#fff">
<p>Video ${id} <output id="time">0</output> s</p>
<button type="button" id="play">Abspielen</button>
<button type="button" id="pause">Pause</button>
<label>Position (Sekunden) <input id="position" type="number" min="0" value="0"></label>
<button type="button" id="seek">Springen</button>
<label>Geschwindigkeit <select id="rate"><option>1</option><option>1.5</option><option>2</option></select></label>
<script>
(() => {
  const duration = ${duration};
  const listening = new Set();
  let seconds = 0;
  let paused = true;
  let ended = false;
  let rate = 1;
  let last = performance.now();
  // what it posted, for the test to wait until the page has heard it all
  const counts = { posted: 0, received: 0 };
  window.playerMessages = counts;
  const post = (message) => {
    counts.posted++;
    window.parent.postMessage(message, "*");
  };
  const reply = (method, value) => post(value === undefined ? { method } : { method, value });
  const emit = (event, data) => listening.has(event) && post({ event, data });
  const timing = () => ({ seconds, percent: Math.round((seconds / duration) * 1000) / 1000, duration });
  const show = () => { document.getElementById("time").textContent = String(Math.floor(seconds)); };

  function advance() {
    const now = performance.now();
    if (!paused) {
      seconds = Math.min(duration, seconds + ((now - last) / 1000) * rate);
    }
    last = now;
  }
  function tick() {
    if (paused) { return; }
    advance();
    show();
    emit("timeupdate", timing());
    if (seconds >= duration) {
      paused = true;
      ended = true;
      emit("pause", timing());
      emit("ended", timing());
    }
  }
  function play() {
    if (!paused) { return; }
    if (ended) { seconds = 0; ended = false; }
    paused = false;
    last = performance.now();
    emit("play", timing());
    emit("playing", timing());
  }
  function pause() {
    if (paused) { return; }
    advance();
    paused = true;
    show();
    emit("pause", timing());
  }
  function seek(to) {
    advance();
    seconds = Math.max(0, Math.min(duration, Number(to)));
    ended = false;
    show();
    emit("seeking", timing());
    emit("seeked", timing());
    emit("timeupdate", timing());
  }
  function setRate(value) {
    advance();
    rate = Number(value);
    document.getElementById("rate").value = String(value);
    emit("playbackratechange", { playbackRate: rate });
  }
  setInterval(tick, 250);

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) { return; }
    let data = event.data;
    if (typeof data === "string") { data = JSON.parse(data); }
    const { method, value } = data ?? {};
    switch (method) {
      case "ping": return reply("ping");
      case "addEventListener": listening.add(value); return reply(method);
      case "removeEventListener": listening.delete(value); return reply(method);
      case "getDuration": return reply(method, duration);
      case "getCurrentTime": return reply(method, seconds);
      case "getPaused": return reply(method, paused);
      case "getEnded": return reply(method, ended);
      case "getPlaybackRate": return reply(method, rate);
      case "getVideoId": return reply(method, ${Number(id)});
      case "appendVideoMetadata": return reply(method);
      case "play": play(); return reply(method);
      case "pause": pause(); return reply(method);
      case "setCurrentTime": seek(value); return reply(method, seconds);
      case "setPlaybackRate": setRate(value); return reply(method, rate);
      default:
        return post({ event: "error", data: { method, name: "TypeError", message: "Unsupported method " + method } });
    }
  });
  document.getElementById("play").addEventListener("click", play);
  document.getElementById("pause").addEventListener("click", pause);
  document.getElementById("seek").addEventListener("click", () => seek(document.getElementById("position").value));
  document.getElementById("rate").addEventListener("change", (e) => setRate(e.target.value));

  post({ event: "ready", player_id: "player-${id}" });
  if (new URLSearchParams(location.search).get("autoplay") === "1") { play(); }
})();
</script>
</body></html>`;
}
