/**
 * Watch time for Fortbildung from the player (issue 33, decisions 104, 109, 110): `@vimeo/player` drives the
 * fake Vimeo player (fake-vimeo.ts) on Playwright's clock; the credited seconds and the presence check
 * are read where the server keeps them.
 */
import { createHash } from "node:crypto";
import type { Db } from "@app/db";
import { schema } from "@app/db";
import { MSG_PRESENCE } from "@app/shared";
import { type BrowserContext, expect, type Page } from "@playwright/test";
import { vimeo } from "./data";
import { fakeVimeoPlayer } from "./fake-vimeo";
import { dayFromToday, login, type TestUser, test } from "./fixtures";

const MINUTE = 60_000;

async function loginAs(page: Page, user: TestUser) {
  await page.goto("/login");
  await login(page, user.email, user.password);
  await expect(page.getByRole("heading", { level: 1, name: /^Hallo / })).toBeVisible();
}

/**
 * The browser runs on Playwright's clock, the production server on the system's: a heartbeat's credit is
 * bounded by the wall-clock time since the video's previous heartbeat (decision 104), which here passes in
 * milliseconds. Every tRPC call carries the browser's time (an init script stamps it), and before a
 * heartbeat reaches the server the bridge sets that one stamp the bound reads (`watch_time.last_beat_at`
 * of this user and video) to what the browser's clock says has passed, in whole seconds. Heartbeats go
 * one at a time (each waits for the previous one's answer), as two tabs' would on a slow line.
 */
async function bridgeServerTime(context: BrowserContext, db: Db, userId: number) {
  await context.addInitScript(() => {
    const original = window.fetch;
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes("/trpc/")) {
        return original(input, init);
      }
      const headers = new Headers(init?.headers);
      headers.set("x-e2e-browser-now", String(Date.now()));
      if (url.includes("attendance.heartbeat")) {
        const sent = window as unknown as { heartbeatsSent?: number };
        sent.heartbeatsSent = (sent.heartbeatsSent ?? 0) + 1;
      }
      return original(input, { ...init, headers });
    };
  });
  const lastBeat = new Map<string, number>();
  let queue = Promise.resolve();
  let pending = 0;
  let beats = 0;
  await context.route(/\/trpc\/[^?]*attendance\.heartbeat/, (route) => {
    pending++;
    queue = queue.then(async () => {
      try {
        const request = route.request();
        const at = Number(request.headers()["x-e2e-browser-now"]);
        const procedures = new URL(request.url()).pathname.replace("/trpc/", "").split(",");
        const body = request.postDataJSON() as Record<string, { json: { videoUrl: string } }>;
        const urls = procedures.flatMap((name, i) =>
          name === "attendance.heartbeat" && body[String(i)] ? [body[String(i)]?.json.videoUrl ?? ""] : [],
        );
        // a batch of several heartbeats of one video: the time passed since the previous request, once
        for (const url of new Set(urls)) {
          const previous = lastBeat.get(url);
          lastBeat.set(url, at);
          if (previous !== undefined) {
            await db.$client.query(
              `UPDATE watch_time SET last_beat_at = now() - make_interval(secs => $1)
               WHERE user_id = $2 AND video_key = $3 AND source = 'player'`,
              [Math.round((at - previous) / 1000), userId, createHash("sha256").update(url).digest("hex")],
            );
          }
        }
        const response = await route.fetch();
        await route.fulfill({ response });
        beats++;
      } finally {
        pending--;
      }
    });
    return queue;
  });
  const sent = (page: Page) =>
    page.evaluate(() => (window as unknown as { heartbeatsSent?: number }).heartbeatsSent ?? 0);
  return {
    beats: () => beats,
    /** every heartbeat the pages sent so far has been answered */
    idle: (pages: Page[]) =>
      expect
        .poll(async () => {
          const all = await Promise.all(pages.map(sent));
          return pending === 0 && all.reduce((sum, n) => sum + n, 0) === beats;
        })
        .toBe(true),
  };
}

/**
 * Counts the messages a page receives from the player, to wait until it has heard everything the players
 * posted (the fake player counts what it posts, fake-vimeo.ts).
 */
async function countPlayerMessages(context: BrowserContext) {
  await context.addInitScript(() => {
    if (location.hostname === "player.vimeo.com") {
      return;
    }
    const counts = { posted: 0, received: 0 };
    Object.assign(window, { playerMessages: counts });
    window.addEventListener("message", (event) => {
      if (event.origin === "https://player.vimeo.com") {
        counts.received++;
      }
    });
  });
}

type Counts = { posted: number; received: number };
const countsOf = (page: Page) =>
  Promise.all(
    page
      .frames()
      .map((frame) =>
        frame
          .evaluate(() => (window as unknown as { playerMessages?: Counts }).playerMessages)
          .catch(() => undefined),
      ),
  );

/** Waits until every page has received every message its players posted. */
async function settled(pages: Page[]) {
  await expect
    .poll(async () => {
      for (const page of pages) {
        const counts = (await countsOf(page)).filter((c): c is Counts => c !== undefined);
        const posted = counts.reduce((sum, c) => sum + c.posted, 0);
        const received = counts.reduce((sum, c) => sum + c.received, 0);
        if (posted !== received) {
          return false;
        }
      }
      return true;
    })
    .toBe(true);
}

test("watch time: replaying, a hidden tab, 2x speed and a second tab credit only what the wall clock allows; a presence check is asked and passed", async ({
  page,
  context,
  data,
  testDb,
}) => {
  test.setTimeout(240_000);
  const user = await data.user();
  const congress = await data.congress({
    firstDay: dayFromToday(0),
    lastDay: dayFromToday(1),
    fortbildung: true,
    // one check a day, within 5-95% of the 30% of 600 s to attend: asked within the first 3 minutes
    presenceChecksPerDay: 1,
    presenceChecksRequired: 1,
    requiredPercent: 30,
  });
  const videoId = 700_000_000 + Math.floor(Math.random() * 99_000_000);
  const url = vimeo(videoId);
  await data.content(congress.id, [
    { name: "Tag 1: Bindung", exclusive_date: "", videos: [{ url, comment: "Vortrag am Morgen" }] },
  ]);
  await data.participation(user.id, congress.id);
  // the length oEmbed tells (the e2e's fake oEmbed answer has none): 10 minutes
  const key = createHash("sha256").update(url).digest("hex");
  await testDb
    .insert(schema.videoPreviews)
    .values({ key, url, title: "Vortrag am Morgen", durationSeconds: 600 });
  try {
    await fakeVimeoPlayer(context, { [String(videoId)]: 600 });
    const bridge = await bridgeServerTime(context, testDb, user.id);
    await countPlayerMessages(context);
    await context.clock.install();

    await loginAs(page, user);
    await page.goto(`/congress/${congress.id}`);
    await expect(page.getByRole("heading", { level: 1, name: congress.title })).toBeVisible();
    // the second tab opens now, while the clock runs, and plays later
    const second = await context.newPage();
    await second.goto(`/congress/${congress.id}`);
    await expect(second.getByRole("button", { name: /^Video abspielen/ })).toBeVisible();
    const pages = [page, second];

    // from here on the time moves only when the test moves it; `t` counts from the first play
    const zero = Math.ceil((await page.evaluate(() => Date.now())) / 1000) * 1000 + 1000;
    await context.clock.pauseAt(zero);
    let t = 0;
    /** Moves the clock to `target` ms after the first play, so that each minute's heartbeat finds every position before it. */
    const runTo = async (target: number) => {
      while (t < target) {
        const boundary = (Math.floor(t / MINUTE) + 1) * MINUTE;
        const next = t < boundary - 250 ? Math.min(target, boundary - 250) : Math.min(target, boundary);
        await context.clock.runFor(next - t);
        t = next;
        await settled(pages);
      }
    };
    /** Lets what the pages just scheduled (a heartbeat's dispatch, an answer) run, without moving the minute. */
    const flush = async () => {
      await settled(pages);
      await context.clock.runFor(1);
      t += 1;
      await settled(pages);
      await bridge.idle(pages);
    };
    const credited = async () => {
      await bridge.idle(pages);
      const { rows } = await testDb.$client.query<{ seconds: number }>(
        "SELECT coalesce(sum(seconds), 0)::int AS seconds FROM watch_time WHERE user_id = $1",
        [user.id],
      );
      return rows[0]?.seconds;
    };
    const player = (p: Page) => p.frameLocator('iframe[src^="https://player.vimeo.com/"]');
    const seek = async (p: Page, seconds: number) => {
      await player(p).getByLabel("Position (Sekunden)").fill(String(seconds));
      await player(p).getByRole("button", { name: "Springen" }).click();
    };
    const hide = (p: Page, hidden: boolean) =>
      p.evaluate(
        (state) => {
          Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
          Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
          document.dispatchEvent(new Event("visibilitychange"));
        },
        hidden ? "hidden" : "visible",
      );

    // the consent click: the player loads and plays at once (autoplay); the SDK connects and reports it
    await page.getByRole("button", { name: /^Video abspielen/ }).click();
    await expect(page.locator("iframe[data-ready=true]")).toHaveCount(1);
    await expect
      .poll(async () => {
        await flush();
        return bridge.beats();
      })
      .toBeGreaterThan(0);

    // 1. three minutes played: 180 s; the presence check comes meanwhile, and the video plays on
    await runTo(3 * MINUTE);
    await flush();
    const prompt = page.getByRole("region", { name: MSG_PRESENCE.question });
    await expect(prompt).toBeVisible();
    const yes = prompt.getByRole("button", { name: MSG_PRESENCE.answer });
    await expect(yes).toBeFocused();
    await expect(player(page).locator("#time")).toHaveText("180");
    await player(page).getByRole("button", { name: "Pause" }).click();
    await flush();
    expect(await credited()).toBe(180);
    await yes.click();
    await expect
      .poll(async () => {
        await flush();
        return prompt.getByRole("status").textContent();
      })
      .toBe(MSG_PRESENCE.passed);
    const { rows: checks } = await testDb.$client.query<{ asked: boolean; answered: boolean }>(
      "SELECT asked_at IS NOT NULL AS asked, answered_at IS NOT NULL AS answered FROM presence_checks WHERE user_id = $1",
      [user.id],
    );
    expect(checks).toEqual([{ asked: true, answered: true }]);
    await prompt.getByRole("button", { name: MSG_PRESENCE.close }).click();
    await expect(prompt).toHaveCount(0);

    // 2. playing on in a hidden tab for a minute: nothing
    await player(page).getByRole("button", { name: "Abspielen" }).click();
    await flush();
    await hide(page, true);
    await runTo(4 * MINUTE);
    await hide(page, false);
    await flush();
    expect(await credited()).toBe(180);

    // 3. sought back to the start and replayed for a minute: nothing
    await seek(page, 0);
    await runTo(5 * MINUTE);
    await flush();
    expect(await credited()).toBe(180);

    // 4. a minute at 2x speed from 5:00: two minutes of the video, one minute of wall clock credited
    await player(page).getByLabel("Geschwindigkeit").selectOption("2");
    await seek(page, 300);
    await runTo(6 * MINUTE);
    await player(page).getByRole("button", { name: "Pause" }).click();
    await flush();
    expect(await credited()).toBe(240);

    // 5. a second tab plays the same video at another place in the same minute: one minute credited
    await second.getByRole("button", { name: /^Video abspielen/ }).click();
    await expect(second.locator("iframe[data-ready=true]")).toHaveCount(1);
    await flush();
    await seek(second, 480);
    await player(page).getByLabel("Geschwindigkeit").selectOption("1");
    await seek(page, 420);
    await player(page).getByRole("button", { name: "Abspielen" }).click();
    await flush();
    await runTo(7 * MINUTE + 400);
    await player(page).getByRole("button", { name: "Pause" }).click();
    await player(second).getByRole("button", { name: "Pause" }).click();
    await flush();
    expect(await credited()).toBe(300);
  } finally {
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await testDb.$client.query("DELETE FROM video_previews WHERE key = $1", [key]);
  }
});
