import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance } from "fastify";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKey } from "../credentials/access-token";
import { SessionStates } from "../credentials/session-states";
import { OverviewCache } from "../services/visitor/overview-cache";
import {
  createCongress,
  createPackage,
  createUser,
  packageOrder,
  participate,
  ticketOrder,
} from "../testing/builders";
import { createTestApp, type TestApp } from "../testing/harness";
import { createContextFactory } from "./context";
import { type AppRouter, appRouter } from "./router";

/**
 * The endpoint answers plain GET queries itself (http.ts). Every answer must be the one tRPC's own
 * handler gives for the same request: same status, same headers that matter, same body.
 */
let t: TestApp;
/** tRPC's own Fastify plugin on the same router and database */
let reference: FastifyInstance;
let token: string;
let congressId: number;

beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t.db.db);
  token = await t.tokenFor(user.id);
  congressId = (await createCongress(t.db.db)).id;
  const createContext = createContextFactory({
    db: t.db.db,
    env: t.env,
    mail: { dispatch: async () => {}, defer: async () => {} },
    jwtKey: secretKey(t.env.JWT_SECRET),
    overviewCache: new OverviewCache({ ttlMs: 0, maxEntries: 0 }),
    sessionStates: new SessionStates(t.db.db, { ttlMs: 0, maxEntries: 0 }),
  });
  reference = Fastify({ logger: false });
  await reference.register(fastifyTRPCPlugin<AppRouter>, {
    prefix: "/trpc",
    trpcOptions: { router: appRouter, createContext: ({ req, res }) => createContext(req, res) },
  });
});

afterAll(async () => {
  await reference.close();
  await t.close();
});

const input = (value: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(value)));
const batchInput = (...values: unknown[]) =>
  encodeURIComponent(JSON.stringify(Object.fromEntries(values.map((v, i) => [i, superjson.serialize(v)]))));

async function both(url: string, authorised = true) {
  const headers = authorised ? { authorization: `Bearer ${token}` } : {};
  const [ours, theirs] = await Promise.all([
    t.app.inject({ method: "GET", url, headers }),
    reference.inject({ method: "GET", url, headers }),
  ]);
  return { ours, theirs };
}

describe("GET queries answered without tRPC's fetch adapter", () => {
  const cases: [string, () => string, boolean?][] = [
    ["a query without input", () => "/trpc/congress.getOverview"],
    ["a query with input", () => `/trpc/congress.get?input=${input({ congressId })}`],
    ["an unauthorised call (401)", () => "/trpc/congress.getOverview", false],
    ["input the schema refuses (400)", () => `/trpc/congress.get?input=${input({ congressId: "x" })}`],
    ["an unknown event (404)", () => `/trpc/congress.get?input=${input({ congressId: 2_000_000 })}`],
    [
      "a batch",
      () => `/trpc/congress.getOverview,account.getProfile?batch=1&input=${batchInput(undefined, undefined)}`,
    ],
    [
      "a batch with one failing call (207)",
      () =>
        `/trpc/congress.getOverview,congress.get?batch=1&input=${batchInput(undefined, { congressId: -1 })}`,
    ],
    ["a batch without input", () => "/trpc/congress.getOverview,account.getProfile?batch=1"],
    // left to tRPC: malformed or not a query
    ["input that is not JSON", () => "/trpc/congress.get?input=%7Bnope"],
    ["an unknown procedure", () => "/trpc/congress.nothing"],
    ["a mutation by GET", () => "/trpc/congress.cancel"],
    ["a batch naming an unknown procedure", () => "/trpc/congress.getOverview,nothing?batch=1"],
    ["a batch with input that is not an object", () => "/trpc/congress.getOverview?batch=1&input=3"],
  ];

  it.each(cases)("%s", async (_name, url, authorised = true) => {
    const { ours, theirs } = await both(url(), authorised);
    expect(ours.statusCode).toBe(theirs.statusCode);
    // Fastify names the charset of a string body; the media type is tRPC's
    expect(String(ours.headers["content-type"]).split(";")[0]).toBe(theirs.headers["content-type"]);
    expect(ours.headers.vary).toBe(theirs.headers.vary);
    expect(ours.json()).toEqual(theirs.json());
  });

  it("covers success and each kind of failure", async () => {
    const statuses = await Promise.all(
      cases.map(async ([, url, a = true]) => (await both(url(), a)).ours.statusCode),
    );
    expect(new Set(statuses)).toEqual(new Set([200, 207, 400, 401, 404]));
  });

  it("writes a full overview byte for byte as tRPC with superjson does (plainSuperjson, app.ts)", async () => {
    const visitor = await createUser(t.db.db);
    const ticketed = await createCongress(t.db.db, {
      description: 'Ümlaute, "Anführungszeichen" und ein Zeilenumbruch\n',
      webinar: true,
      webinarUrl: "https://example.com/live",
      webinarStartTime: "09:00",
      digistoreIdTicket: 4711,
    });
    await participate(t.db.db, visitor.id, ticketed.id);
    await ticketOrder(t.db.db, visitor.id, ticketed.id, "paid");
    const pkg = await createPackage(t.db.db, ticketed.id, {
      extraParameters: { crosssellDescription: "Dazu", crosssellLink: "https://example.com/x" },
    });
    await packageOrder(t.db.db, visitor.id, pkg.id, "canceled");
    await packageOrder(t.db.db, visitor.id, pkg.id, "paid");
    const headers = { authorization: `Bearer ${await t.tokenFor(visitor.id)}` };
    for (const url of [
      "/trpc/congress.getOverview",
      "/trpc/congress.getOverview,account.getProfile?batch=1",
    ]) {
      const [ours, theirs] = await Promise.all([
        t.app.inject({ method: "GET", url, headers }),
        reference.inject({ method: "GET", url, headers }),
      ]);
      expect(ours.statusCode).toBe(200);
      expect(ours.body).toContain(`"participationId":`);
      expect(ours.body).toBe(theirs.body);
    }
  });

  it("keeps {title, detail} in errors and never a stack", async () => {
    const { ours } = await both("/trpc/congress.getOverview", false);
    const body = ours.json() as { error: { json: { data: Record<string, unknown> } } };
    expect(body.error.json.data).toMatchObject({ title: expect.any(String), detail: expect.any(String) });
    // superjson writes the formatter's `stack: undefined` as null plus a type note
    expect(body.error.json.data.stack ?? undefined).toBeUndefined();
  });
});
