import { schema } from "@app/db";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedStatement } from "../../lib/prepared-statement";
import { createCongress, createContent, videoUrl } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { previewKey } from "../visitor/video-preview";
import { videoSeconds } from "./video-length";

/** ADR 0105: which length of a video counts, as the heartbeat's prepared statement would ask it. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.db.db;

const lengthOf = preparedStatement<
  { congressId: number; url: string; key: string },
  { seconds: number | null }
>((p) => sql`SELECT ${videoSeconds(p.congressId, p.url, p.key)} AS seconds`);

async function vimeoSays(url: string, durationSeconds: number | null) {
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds });
}

describe("the length of a video of a congress", () => {
  it("is the organiser's longest for that address in the congress, else Vimeo's, else unknown", async () => {
    const congress = await createCongress(db());
    const other = await createCongress(db());
    const [typed, vimeoOnly, live, nothing] = [videoUrl(), videoUrl(), videoUrl(), videoUrl()];
    await vimeoSays(typed, 3600);
    await vimeoSays(vimeoOnly, 900);
    // Vimeo's 0 for a live stream is stored as none
    await vimeoSays(live, null);
    await createContent(db(), congress.id, [
      { urls: [typed, vimeoOnly, live, nothing], durations: [1200] },
      { urls: [typed], durations: [1500] },
    ]);
    // another congress's organiser says nothing about this one's videos
    await createContent(db(), other.id, [{ urls: [vimeoOnly, nothing], durations: [60, 60] }]);
    const seconds = async (url: string) =>
      (await lengthOf(db(), { congressId: congress.id, url, key: previewKey(url) }))?.seconds;
    expect(await seconds(typed)).toBe(1500);
    expect(await seconds(vimeoOnly)).toBe(900);
    expect(await seconds(live)).toBeNull();
    expect(await seconds(nothing)).toBeNull();
    expect(
      (await lengthOf(db(), { congressId: other.id, url: nothing, key: previewKey(nothing) }))?.seconds,
    ).toBe(60);
  });

  it("reads only a positive number of seconds from the content, whatever an import left there", async () => {
    const congress = await createCongress(db());
    const url = videoUrl();
    await vimeoSays(url, 700);
    await db()
      .insert(schema.congressContents)
      .values({
        congressId: congress.id,
        type: "vimeo-url",
        data: {
          days: [
            {
              name: "Tag 1",
              exclusive_date: "",
              videos: [
                { url, comment: "", duration: "12:00" as unknown as number },
                { url, comment: "", duration: 0 },
                { url, comment: "", duration: -5 },
              ],
            },
          ],
        },
      });
    expect((await lengthOf(db(), { congressId: congress.id, url, key: previewKey(url) }))?.seconds).toBe(700);
  });
});
