import { berlinDate, MSG } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAndVisitor, createUser, trpcMutation, trpcQuery } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { MAX_BATCH_CALLS, refusedForm } from "./endpoint";

/**
 * The tRPC endpoint (tRPC's Fastify adapter, endpoint.ts) on an instance that keeps overviews, and the hook
 * that drops them after a signed-in write (app.ts, `dropAfterWrite`).
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { OVERVIEW_CACHE_MS: "600000" } });
  await t.app.overviewCacheReady;
});

afterAll(async () => {
  await t.close();
});

/** The visitor's overview, asked for until this instance keeps it (an answer overlapping the
 * announcement of the new account is not kept, which can come late on a busy machine). */
async function keptOverviewOf(userId: number, token: string): Promise<string> {
  let body = "";
  await expect
    .poll(async () => {
      const answer = await t.app.inject({
        method: "GET",
        url: "/trpc/congress.getOverview",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.statusCode).toBe(200);
      body = answer.body;
      return t.app.overviewCache.get(userId, berlinDate(t.clock.now())) !== undefined;
    })
    .toBe(true);
  return body;
}

describe("the tRPC endpoint", () => {
  it("answers a kept overview with the same bytes as a new one", async () => {
    const visitor = await createUser(t.db.db);
    const token = await t.tokenFor(visitor.id);
    const made = await keptOverviewOf(visitor.id, token);
    const kept = await t.app.inject({
      method: "GET",
      url: "/trpc/congress.getOverview",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(kept.body).toBe(made);
    expect(kept.body).toContain(`"firstname":"${visitor.firstname}"`);
  });

  it("drops a visitor's kept overview after any write of theirs, refused or not, and not after a read", async () => {
    const visitor = await createUser(t.db.db);
    const other = await createUser(t.db.db);
    const token = await t.tokenFor(visitor.id);
    await keptOverviewOf(visitor.id, token);
    await keptOverviewOf(other.id, await t.tokenFor(other.id));
    const day = berlinDate(t.clock.now());

    expect((await trpcQuery(t, "account.getProfile", undefined, { token })).status).toBe(200);
    expect(t.app.overviewCache.get(visitor.id, day)).toBeDefined();
    // refused by the schema: nothing written, so no change notification drops it; the hook does
    expect((await trpcMutation(t, "account.setNewsletter", { newsletter: "ja" }, { token })).status).toBe(
      400,
    );
    expect(t.app.overviewCache.get(visitor.id, day)).toBeUndefined();
    expect(t.app.overviewCache.get(other.id, day)).toBeDefined();
  });

  it("drops every kept overview after an admin's write", async () => {
    const { adminToken } = await adminAndVisitor(t);
    const visitor = await createUser(t.db.db);
    await keptOverviewOf(visitor.id, await t.tokenFor(visitor.id));
    await trpcMutation(t, "account.setNewsletter", { newsletter: "nein" }, { token: adminToken });
    expect(t.app.overviewCache.size).toBe(0);
  });

  it("keeps {title, detail} in errors and never a stack", async () => {
    const answer = await trpcQuery(t, "congress.getOverview");
    expect(answer.status).toBe(401);
    expect(answer.error).toMatchObject({ title: MSG.unauthorizedTitle, detail: MSG.unauthorizedDetail });
    // superjson writes the formatter's `stack: undefined` as null plus a type note
    expect((answer.error as { stack?: unknown }).stack ?? undefined).toBeUndefined();
  });

  it("refuses every call of a batch of more than the allowed calls with the German reason", async () => {
    const paths = Array.from({ length: MAX_BATCH_CALLS + 1 }, () => "account.getProfile").join(",");
    const answer = await t.app.inject(`/trpc/${paths}?batch=1`);
    expect(answer.statusCode).toBe(400);
    const calls = answer.json() as Array<{ error: { json: { data: { detail: string } } } }>;
    expect(calls).toHaveLength(MAX_BATCH_CALLS + 1);
    expect(calls.every((call) => call.error.json.data.detail === MSG.batchRefusedDetail)).toBe(true);
  });
});

describe("refusedForm", () => {
  const form = { "content-type": "multipart/form-data; boundary=x" };

  it("refuses a form body without a length or over the limit, and lets everything else pass", () => {
    expect(refusedForm({ ...form, "content-length": "100" }, 100)).toBeNull();
    expect(refusedForm({ ...form, "content-length": "101" }, 100)?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(refusedForm(form, 100)?.code).toBe("BAD_REQUEST");
    expect(refusedForm({ ...form, "content-length": "1e9" }, 100)?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(refusedForm({ ...form, "content-length": "zwölf" }, 100)?.code).toBe("BAD_REQUEST");
    expect(refusedForm({ "content-type": "application/json", "content-length": "5000" }, 100)).toBeNull();
  });
});
