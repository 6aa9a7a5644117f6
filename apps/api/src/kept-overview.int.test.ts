import { berlinDate, MSG } from "@app/shared";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loneOverviewCall, trpcResult } from "./kept-overview";
import { adminAndVisitor, createUser, trpcMutation, trpcQuery } from "./testing/builders";
import { createTestApp, type TestApp } from "./testing/harness";
import type { AppRouter } from "./trpc/router";

/**
 * The kept overview at HTTP (kept-overview.ts, ADR 0148): kept answers go out before tRPC's adapter with the
 * bytes tRPC wrote for them; signed-in writes drop them before their own answer goes out.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { OVERVIEW_CACHE_MS: "600000" } });
  await t.app.overviewCacheReady;
});

afterAll(async () => {
  await t.close();
});

const today = () => berlinDate(t.clock.now());

/** The URL the web app's link (tRPC's `httpBatchLink`) asks the overview with. */
async function webAppUrl(token: string): Promise<string> {
  let asked = "";
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: "http://localhost/trpc",
        transformer: superjson,
        headers: { authorization: `Bearer ${token}` },
        fetch: async (url, init) => {
          const { pathname, search } = new URL(String(url));
          asked = pathname + search;
          const answer = await t.app.inject({
            method: "GET",
            url: asked,
            headers: init?.headers as Record<string, string>,
          });
          return new Response(answer.body, { status: answer.statusCode });
        },
      }),
    ],
  });
  await client.congress.getOverview.query();
  return asked;
}

/** Asks `url` once with an empty cache (tRPC's adapter answers and fills it), until the answer is kept. */
async function answeredByTrpc(userId: number, token: string, url: string) {
  for (;;) {
    t.app.overviewCache.drop([userId]);
    const answer = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(200);
    // an answer overlapping the announcement of the new account is not kept (late on a busy machine)
    if (t.app.overviewCache.get(userId, today()) !== undefined) {
      return answer;
    }
  }
}

describe("a kept overview", () => {
  it("goes out with the bytes and headers tRPC wrote for it, plain and as the web app's batch of one", async () => {
    const visitor = await createUser(t.db.db);
    const token = await t.tokenFor(visitor.id);
    const batchUrl = await webAppUrl(token);
    expect(loneOverviewCall(batchUrl)).toEqual({ batch: true });
    for (const url of ["/trpc/congress.getOverview", batchUrl]) {
      const made = await answeredByTrpc(visitor.id, token, url);
      const kept = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
      expect(kept.statusCode).toBe(200);
      expect(kept.body).toBe(made.body);
      // Fastify names the charset of a text it sends: the same JSON in UTF-8
      expect(kept.headers["content-type"]).toBe(`${made.headers["content-type"]}; charset=utf-8`);
      expect(kept.headers.vary).toBe(made.headers.vary);
      expect(kept.body).toContain(`"lastname":"${visitor.lastname}"`);
    }
    const kept = t.app.overviewCache.get(visitor.id, today());
    expect(`[${trpcResult(kept)}]`).toBe((await answeredByTrpc(visitor.id, token, batchUrl)).body);
  });

  it("goes to nobody but its visitor, and to nobody without a session", async () => {
    const visitor = await createUser(t.db.db);
    const other = await createUser(t.db.db);
    const token = await t.tokenFor(visitor.id);
    await answeredByTrpc(visitor.id, token, "/trpc/congress.getOverview");
    const theirs = await trpcQuery(t, "congress.getOverview", undefined, {
      token: await t.tokenFor(other.id),
    });
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.data)).toContain(`"lastname":"${other.lastname}"`);
    expect(JSON.stringify(theirs.data)).not.toContain(`"lastname":"${visitor.lastname}"`);
    const nobody = await trpcQuery(t, "congress.getOverview");
    expect(nobody.status).toBe(401);
    expect(nobody.error).toMatchObject({ title: MSG.unauthorizedTitle, detail: MSG.unauthorizedDetail });
    const forged = await trpcQuery(t, "congress.getOverview", undefined, { token: `${token}x` });
    expect(forged.status).toBe(401);
  });

  it("is dropped after any write of its visitor, refused or not, and not after a read", async () => {
    const visitor = await createUser(t.db.db);
    const other = await createUser(t.db.db);
    const token = await t.tokenFor(visitor.id);
    await answeredByTrpc(visitor.id, token, "/trpc/congress.getOverview");
    await answeredByTrpc(other.id, await t.tokenFor(other.id), "/trpc/congress.getOverview");

    expect((await trpcQuery(t, "account.getProfile", undefined, { token })).status).toBe(200);
    expect(t.app.overviewCache.get(visitor.id, today())).toBeDefined();
    // refused by the schema: nothing written, so no change notification drops it; the hook does
    expect((await trpcMutation(t, "account.setNewsletter", { newsletter: "ja" }, { token })).status).toBe(
      400,
    );
    expect(t.app.overviewCache.get(visitor.id, today())).toBeUndefined();
    expect(t.app.overviewCache.get(other.id, today())).toBeDefined();
  });

  it("is dropped, every one, after an admin's write", async () => {
    const { adminToken } = await adminAndVisitor(t);
    const visitor = await createUser(t.db.db);
    await answeredByTrpc(visitor.id, await t.tokenFor(visitor.id), "/trpc/congress.getOverview");
    await trpcMutation(t, "account.setNewsletter", { newsletter: "nein" }, { token: adminToken });
    expect(t.app.overviewCache.size).toBe(0);
  });
});

describe("loneOverviewCall", () => {
  const input = (inputs: unknown) => encodeURIComponent(JSON.stringify(inputs));

  it("takes the overview alone, plain or as a batch of one, and leaves everything else to tRPC", () => {
    expect(loneOverviewCall("/trpc/congress.getOverview")).toEqual({ batch: false });
    expect(loneOverviewCall(`/trpc/congress.getOverview?batch=1&input=${input({ 0: {} })}`)).toEqual({
      batch: true,
    });
    for (const url of [
      "/trpc/congress.getOverviewX",
      "/trpc/congress.getOverview,account.getProfile?batch=1&input=%7B%7D",
      `/trpc/congress.getOverview?input=${input({ json: null })}`,
      `/trpc/congress.getOverview?batch=1&input=${input({ 0: {}, 1: {} })}`,
      `/trpc/congress.getOverview?batch=1&input=${input([{}])}`,
      `/trpc/congress.getOverview?batch=1&input=${input({ 0: {} })}&x=1`,
      "/trpc/congress.getOverview?batch=1&input=%7B",
      "/trpc/congress.getOverview?batch=1",
      "/trpc/congress.getOverview/",
      "/api/congress",
    ]) {
      expect(loneOverviewCall(url), url).toBeNull();
    }
  });
});
