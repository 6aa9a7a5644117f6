import { MSG } from "@app/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trpcQuery } from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { MAX_BATCH_CALLS, refusedForm } from "./endpoint";

/** The tRPC endpoint (tRPC's Fastify adapter, endpoint.ts): its error shape, the batch and form-body rules. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe("the tRPC endpoint", () => {
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
