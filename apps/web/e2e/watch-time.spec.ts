/**
 * Watch time for Fortbildung from the player (ADR 0104, ADR 0109, ADR 0110, ADR 0126): `@vimeo/player` drives the
 * fake Vimeo player (fake-vimeo.ts) on Playwright's clock; the credited seconds and the presence check
 * are read where the server keeps them.
 */
import { createHash } from "node:crypto";
import type { Db } from "@app/db";
import { HEARTBEAT_MAX_CREDIT_SECONDS, MSG_PRESENCE } from "@app/shared";
import { type BrowserContext, expect, type Page } from "@playwright/test";
import { type TestData, vimeo } from "./data";
import { fakeVimeoPlayer } from "./fake-vimeo";
import { dayFromToday, expectAccessible, type SignIn, test } from "./fixtures";

const MINUTE = 60_000;

/**
 * The browser runs on Playwright's clock, the production server on the system's: a heartbeat's credit is
 * bounded by the wall-clock time since the person's clock (`watch_clocks.last_beat_at`, ADR 0126, ADR 0149),
 * which here passes in milliseconds. Every tRPC call carries the browser's time (an init script stamps it).
 * After each heartbeat the bridge reads how far the server left the clock behind its time (what the heartbeat
 * did not spend, in whole seconds) and keeps that moment in the browser's time; before the next one it sets the
 * clock to as long before the server's time as the browser's clock says has passed since. Before an answer to a
 * presence check it sets `asked_at` to as long ago as the browser's clock says the check was offered. These
 * calls go one at a time (each waits for the previous one's answer), as several tabs' would on a slow line.
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
      if (/attendance\.(heartbeat|answerPresenceCheck)/.test(url)) {
        const sent = window as unknown as { bridgedSent?: number };
        sent.bridgedSent = (sent.bridgedSent ?? 0) + 1;
      }
      return original(input, { ...init, headers });
    };
  });
  /** the person's clock in the browser's time, once the day's first heartbeat set it */
  let clockAt: number | undefined;
  /** when (browser time) a presence check was first offered, by `congressId/day/seq` */
  const offered = new Map<string, number>();
  let queue = Promise.resolve();
  let pending = 0;
  let beats = 0;
  await context.route(/\/trpc\/[^?]*attendance\.(heartbeat|answerPresenceCheck)/, (route) => {
    pending++;
    queue = queue.then(async () => {
      try {
        const request = route.request();
        const at = Number(request.headers()["x-e2e-browser-now"]);
        const procedures = new URL(request.url()).pathname.replace("/trpc/", "").split(",");
        const body = request.postDataJSON() as Record<string, { json: Record<string, unknown> }>;
        const calls = (name: string) =>
          procedures.flatMap((procedure, i) => {
            const input = body[String(i)]?.json;
            return procedure === name && input ? [input] : [];
          });
        // heartbeats (of any videos and tabs) at one moment: the clock as far behind as the browser's time says
        const heartbeats = calls("attendance.heartbeat").length > 0;
        if (heartbeats && clockAt !== undefined) {
          await db.$client.query(
            "UPDATE watch_clocks SET last_beat_at = now() - make_interval(secs => $1) WHERE user_id = $2",
            [Math.round((at - clockAt) / 1000), userId],
          );
        }
        // an answer: the check was asked as long ago as the browser's clock says it was offered
        for (const { congressId, day, seq } of calls("attendance.answerPresenceCheck")) {
          const since = offered.get(`${congressId}/${day}/${seq}`);
          if (since !== undefined) {
            await db.$client.query(
              `UPDATE presence_checks SET asked_at = now() - make_interval(secs => $1)
               WHERE user_id = $2 AND congress_id = $3 AND day = $4 AND seq = $5 AND answered_at IS NULL`,
              [(at - since) / 1000, userId, congressId, day, seq],
            );
          }
        }
        const response = await route.fetch();
        for (const answer of (await response.json()) as Array<{
          result?: { data?: { json?: { presenceCheck?: { congressId: number; day: string; seq: number } } } };
        }>) {
          const check = answer.result?.data?.json?.presenceCheck;
          const key = check && `${check.congressId}/${check.day}/${check.seq}`;
          if (key && !offered.has(key)) {
            offered.set(key, at);
          }
        }
        if (heartbeats) {
          const { rows } = await db.$client.query<{ behind: number }>(
            "SELECT round(extract(epoch FROM now() - last_beat_at))::int AS behind FROM watch_clocks WHERE user_id = $1",
            [userId],
          );
          clockAt = rows[0] ? at - rows[0].behind * 1000 : clockAt;
        }
        await route.fulfill({ response });
        beats++;
      } finally {
        pending--;
      }
    });
    return queue;
  });
  const sent = (page: Page) =>
    page.evaluate(() => (window as unknown as { bridgedSent?: number }).bridgedSent ?? 0);
  return {
    beats: () => beats,
    /** every heartbeat and answer the pages sent so far has been answered */
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

interface Fixtures {
  page: Page;
  context: BrowserContext;
  data: TestData;
  testDb: Db;
  signIn: SignIn;
}

/**
 * A participant of a running Fortbildung event (one presence check a day, 30% of the day's one 600 s video
 * to attend: the check's moment lies within 9-171 credited seconds) with the event page open in two tabs,
 * the clock paused and the video just started in the first tab (autoplay after the consent click).
 */
async function startWatching(
  { page, context, data, testDb, signIn }: Fixtures,
  { videos = 1, tabs = 2 }: { videos?: number; tabs?: number } = {},
) {
  const user = await data.user();
  const congress = await data.congress({
    firstDay: dayFromToday(0),
    lastDay: dayFromToday(1),
    fortbildung: true,
    presenceChecksPerDay: 1,
    presenceChecksRequired: 1,
    requiredPercent: 30,
  });
  const firstId = 700_000_000 + Math.floor(Math.random() * 99_000_000);
  const videoIds = Array.from({ length: videos }, (_, i) => firstId + i);
  const urls = videoIds.map((id) => vimeo(id));
  await data.content(congress.id, [
    {
      name: "Tag 1: Bindung",
      exclusive_date: "",
      videos: urls.map((url, i) => ({ url, comment: i === 0 ? "Vortrag am Morgen" : `Vortrag ${i + 1}` })),
    },
  ]);
  await data.participation(user.id, congress.id);
  // the length oEmbed tells (the e2e's fake oEmbed answer has none): 10 minutes each
  const keys = urls.map((url) => createHash("sha256").update(url).digest("hex"));
  for (const url of urls) {
    await data.videoLength(url, 600);
  }
  const cleanUp = async () => {
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await testDb.$client.query("DELETE FROM video_previews WHERE key = ANY($1)", [keys]);
  };

  await fakeVimeoPlayer(context, Object.fromEntries(videoIds.map((id) => [String(id), 600])));
  const bridge = await bridgeServerTime(context, testDb, user.id);
  await countPlayerMessages(context);
  await context.clock.install();

  await signIn(user);
  await page.goto(`/congress/${congress.id}`);
  await expect(page.getByRole("heading", { level: 1, name: congress.title })).toBeVisible();
  // the other tabs open now, while the clock runs, and play later
  const pages = [page];
  while (pages.length < tabs) {
    const tab = await context.newPage();
    await tab.goto(`/congress/${congress.id}`);
    await expect(tab.getByRole("button", { name: /^Video abspielen/ }).first()).toBeVisible();
    pages.push(tab);
  }
  const second = pages[1] ?? page;

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
  const checks = async () =>
    (
      await testDb.$client.query<{ asked: boolean; answered: boolean; late: boolean }>(
        `SELECT asked_at IS NOT NULL AS asked, answered_at IS NOT NULL AS answered,
           answered_at - asked_at > interval '120 seconds' AS late
         FROM presence_checks WHERE user_id = $1`,
        [user.id],
      )
    ).rows;
  const player = (p: Page) => p.frameLocator('iframe[src^="https://player.vimeo.com/"]');
  const prompt = page.getByRole("region", { name: MSG_PRESENCE.question });
  /** Plays minute by minute until the presence check is shown (by 3:00 at the latest). */
  const playUntilAsked = async () => {
    for (let minute = 1; minute <= 3; minute++) {
      await runTo(minute * MINUTE);
      await flush();
      if (await prompt.isVisible()) {
        return;
      }
    }
    throw new Error("no presence check within three minutes");
  };
  /** Answers the check and waits for the prompt's verdict. */
  const answer = async () => {
    await prompt.getByRole("button", { name: MSG_PRESENCE.answer }).click();
    await expect
      .poll(async () => {
        await flush();
        return prompt.getByRole("status").textContent();
      })
      .not.toBe("");
  };

  // the consent click: the player loads and plays at once (autoplay); the SDK connects and reports it
  await page
    .getByRole("button", { name: /^Video abspielen/ })
    .first()
    .click();
  await expect(page.locator("iframe[data-ready=true]")).toHaveCount(1);
  await expect
    .poll(async () => {
      await flush();
      return bridge.beats();
    })
    .toBeGreaterThan(0);
  return {
    congressId: congress.id,
    email: user.email,
    /** moves the day's (drawn) check to `seconds` of credited watch time */
    checkDueAt: async (seconds: number) => {
      await expect
        .poll(async () => {
          const { rowCount } = await testDb.$client.query(
            "UPDATE presence_checks SET due_at_seconds = $1 WHERE user_id = $2 AND asked_at IS NULL",
            [seconds, user.id],
          );
          return rowCount;
        })
        .toBe(1);
    },
    /** the participant's Fortbildung line of the first tab, once what the page scheduled has run */
    fortbildungLine: async () => {
      await flush();
      return page.getByRole("region", { name: /^Fortbildung/ }).textContent();
    },
    second,
    pages,
    /** the clock, in ms since the first play */
    now: () => t,
    runTo,
    flush,
    credited,
    checks,
    player,
    prompt,
    playUntilAsked,
    answer,
    cleanUp,
    seek: async (p: Page, seconds: number) => {
      await player(p).getByLabel("Position (Sekunden)").fill(String(seconds));
      await player(p).getByRole("button", { name: "Springen" }).click();
    },
    hide: (p: Page, hidden: boolean) =>
      p.evaluate(
        (state) => {
          Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
          Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
          document.dispatchEvent(new Event("visibilitychange"));
        },
        hidden ? "hidden" : "visible",
      ),
  };
}

test("watch time: replaying, a hidden tab, 2x speed and a second tab credit only what the wall clock allows; a presence check is asked and passed", async ({
  browser,
  page,
  context,
  data,
  testDb,
  signIn,
}) => {
  test.setTimeout(240_000);
  const w = await startWatching({ page, context, data, testDb, signIn });
  try {
    // 1. three minutes played: 180 s; the presence check comes meanwhile, takes the focus, and the video
    // plays on; answered at once, it passes
    await w.playUntilAsked();
    await expect(w.prompt.getByRole("button", { name: MSG_PRESENCE.answer })).toBeFocused();
    await expect(w.prompt).toContainText(`${MSG_PRESENCE.hint} ${MSG_PRESENCE.playsOn}`);
    await w.answer();
    await expect(w.prompt.getByRole("status")).toHaveText(MSG_PRESENCE.passed);
    expect(await w.checks()).toEqual([{ asked: true, answered: true, late: false }]);
    // the page's line counts the answer at once, before any further heartbeat (the clock stands still)
    await expect.poll(() => w.fortbildungLine()).toContain("Anwesenheitsabfragen: 1 von 1");
    await w.prompt.getByRole("button", { name: MSG_PRESENCE.close }).click();
    await expect(w.prompt).toHaveCount(0);
    await w.runTo(3 * MINUTE);
    await expect(w.player(page).locator("#time")).toHaveText("180");
    await w.player(page).getByRole("button", { name: "Pause" }).click();
    await w.flush();
    expect(await w.credited()).toBe(180);
    // the page's line counts up after the heartbeat: 3 of 10 minutes with 30% and the check passed
    await expect
      .poll(() => w.fortbildungLine())
      .toContain("3 von 10 Minuten · Anwesenheitsabfragen: 1 von 1 · Voraussetzung erfüllt");

    // 2. playing on in a hidden tab for a minute: nothing
    await w.player(page).getByRole("button", { name: "Abspielen" }).click();
    await w.flush();
    await w.hide(page, true);
    await w.runTo(4 * MINUTE);
    await w.hide(page, false);
    await w.flush();
    expect(await w.credited()).toBe(180);

    // 3. sought back to the start and replayed for a minute: nothing
    await w.seek(page, 0);
    await w.runTo(5 * MINUTE);
    await w.flush();
    expect(await w.credited()).toBe(180);

    // 4. a minute at 2x speed from 5:00: two minutes of the video, and of the wall clock at most what one
    // heartbeat may credit (75 s): the hidden and the replayed minute spent nothing of the person's clock
    // (ADR 0149), so it stands at 3:00, and the heartbeat at 6:00 gets its cap, not three minutes
    await w.player(page).getByLabel("Geschwindigkeit").selectOption("2");
    await w.seek(page, 300);
    await w.runTo(6 * MINUTE);
    await w.player(page).getByRole("button", { name: "Pause" }).click();
    await w.flush();
    expect(await w.credited()).toBe(180 + HEARTBEAT_MAX_CREDIT_SECONDS);

    // 5. a second tab plays the same video at another place in the same minute: one minute credited
    await w.second.getByRole("button", { name: /^Video abspielen/ }).click();
    await expect(w.second.locator("iframe[data-ready=true]")).toHaveCount(1);
    await w.flush();
    await w.seek(w.second, 480);
    await w.player(page).getByLabel("Geschwindigkeit").selectOption("1");
    await w.seek(page, 420);
    await w.player(page).getByRole("button", { name: "Abspielen" }).click();
    await w.flush();
    await w.runTo(7 * MINUTE + 400);
    await w.player(page).getByRole("button", { name: "Pause" }).click();
    await w.player(w.second).getByRole("button", { name: "Pause" }).click();
    await w.flush();
    expect(await w.credited()).toBe(180 + HEARTBEAT_MAX_CREDIT_SECONDS + 60);
    await expect.poll(() => w.fortbildungLine()).toContain("5 von 10 Minuten");

    // the organiser's section shows the same minutes and the check
    await context.clock.resume();
    const admin = await data.user({ admin: true });
    const organiser = await browser.newPage();
    try {
      await signIn(admin, organiser);
      await organiser.goto(`/admin/manage/fortbildung?congress=${w.congressId}`);
      const row = organiser
        .getByRole("table", { name: "Fortbildung" })
        .getByRole("row")
        .filter({ hasText: w.email });
      await expect(row).toContainText("5 von 10");
      await expect(row).toContainText("Player");
      await expect(row).toContainText("Ja");
      // passed checks and the day's requirement, not "1 von 1" (which read "2 von 1" for two passed)
      await expect(
        organiser.getByRole("columnheader", { name: "Anwesenheitsabfragen bestanden" }),
      ).toBeVisible();
      await expect(row).toContainText("1 (1 erforderlich)");
    } finally {
      await organiser.close();
    }
  } finally {
    await w.cleanUp();
  }
});

test("six windows playing six videos of one day credit the person's time once", async ({
  page,
  context,
  data,
  testDb,
  signIn,
}) => {
  test.setTimeout(240_000);
  const w = await startWatching({ page, context, data, testDb, signIn }, { videos: 6, tabs: 6 });
  try {
    // the first window plays the first video; each other window starts a video of its own
    for (const [i, tab] of w.pages.entries()) {
      if (i > 0) {
        await tab
          .getByRole("button", { name: /^Video abspielen/ })
          .nth(i)
          .click();
        await expect(tab.locator("iframe[data-ready=true]")).toHaveCount(1);
      }
    }
    await w.flush();
    await w.runTo(3 * MINUTE);
    for (const tab of w.pages) {
      await expect(w.player(tab).locator("#time")).not.toHaveText("0");
      await w.player(tab).getByRole("button", { name: "Pause" }).click();
    }
    await w.flush();
    // three minutes of six videos played side by side: three minutes of one person
    const credited = await w.credited();
    expect(credited).toBeGreaterThanOrEqual(179);
    expect(credited).toBeLessThanOrEqual(181);
  } finally {
    await w.cleanUp();
  }
});

test("a presence check answered after more than two minutes is recorded, and the prompt says it does not count", async ({
  page,
  context,
  data,
  testDb,
  signIn,
}) => {
  test.setTimeout(120_000);
  const w = await startWatching({ page, context, data, testDb, signIn });
  try {
    await w.playUntilAsked();
    // the video plays on for two more minutes and a second while the question waits
    await w.runTo(w.now() + 2 * MINUTE + 1000);
    await w.answer();
    await expect(w.prompt.getByRole("status")).toHaveText(MSG_PRESENCE.late);
    expect(await w.checks()).toEqual([{ asked: true, answered: true, late: true }]);
    // the page with the prompt open (axe needs the page's timers: the clock runs again)
    await context.clock.resume();
    await expectAccessible(page, "Anwesenheitsabfrage", { frames: false });
  } finally {
    await w.cleanUp();
  }
});

test("a presence check that comes with a pause says nothing of a running video; playing again, it does", async ({
  page,
  context,
  data,
  testDb,
  signIn,
}) => {
  test.setTimeout(120_000);
  const w = await startWatching({ page, context, data, testDb, signIn });
  try {
    // the check falls due at 20 s; paused at 0:30 before any minute's heartbeat, the pause's heartbeat
    // credits the 30 s and brings the question
    await w.checkDueAt(20);
    await w.runTo(30_000);
    await w.player(page).getByRole("button", { name: "Pause" }).click();
    await w.flush();
    await expect(w.prompt).toBeVisible();
    await expect(w.prompt.getByRole("button", { name: MSG_PRESENCE.answer })).toBeFocused();
    await expect(w.prompt).toContainText(MSG_PRESENCE.hint);
    await expect(w.prompt).not.toContainText(MSG_PRESENCE.playsOn);
    await expect(w.prompt).not.toContainText("läuft");

    await w.player(page).getByRole("button", { name: "Abspielen" }).click();
    await w.flush();
    await expect(w.prompt).toContainText(`${MSG_PRESENCE.hint} ${MSG_PRESENCE.playsOn}`);
    await w.answer();
    await expect(w.prompt.getByRole("status")).toHaveText(MSG_PRESENCE.passed);
  } finally {
    await w.cleanUp();
  }
});
