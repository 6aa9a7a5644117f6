import { schema } from "@app/db";
import { addDays, berlinDate, formatGermanDate, type IsoDate } from "@app/shared";
import { sql } from "drizzle-orm";
import type { TestApp } from "./harness";

/** Test data builders for the visitor-area integration tests; everything goes straight into the database. */

let counter = 0;
const next = () => ++counter;

export const today = (): IsoDate => berlinDate();
export const relDay = (days: number): IsoDate => addDays(berlinDate(), days);
/** `DD.MM.YYYY` as the content editor stores exclusive dates */
export const germanDay = (date: IsoDate): string => formatGermanDate(date);

/** A unique Vimeo player URL per call, so tests can look for it in response bodies. */
export const videoUrl = (): string => `https://player.vimeo.com/video/${900_000_000 + next()}`;

type Db = TestApp["db"]["db"];

export async function createUser(
  db: Db,
  values: Partial<typeof schema.users.$inferInsert> = {},
): Promise<typeof schema.users.$inferSelect> {
  const n = next();
  const [row] = await db
    .insert(schema.users)
    .values({
      email: `visitor.${Date.now()}.${n}@example.com`,
      firstname: "Vera",
      // letters only, as the name rule takes them (an admin's dialog saves the name unchanged): 12 is "BC"
      lastname: `Besucherin ${String(n).replace(/\d/g, (d) => "ABCDEFGHIJ".charAt(Number(d)))}`,
      active: true,
      passwordHash: "not-used",
      ...values,
    })
    .returning();
  if (!row) {
    throw new Error("user not created");
  }
  return row;
}

/** An admin and a visitor with their access tokens: the callers of a suite that checks who may ask. */
export async function adminAndVisitor(t: TestApp) {
  const admin = await createUser(t.db.db, { roles: ["ROLE_USER", "ROLE_ADMIN"] });
  return {
    adminId: admin.id,
    adminToken: await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]),
    visitorToken: await t.tokenFor((await createUser(t.db.db)).id),
  };
}

export async function createCongress(
  db: Db,
  values: Partial<typeof schema.congresses.$inferInsert> = {},
): Promise<typeof schema.congresses.$inferSelect> {
  const [row] = await db
    .insert(schema.congresses)
    .values({
      title: `Kongress ${next()}`,
      visible: true,
      firstDay: relDay(-1),
      lastDay: relDay(1),
      ...values,
    })
    .returning();
  if (!row) {
    throw new Error("congress not created");
  }
  return row;
}

export interface DaySpec {
  name?: string;
  exclusive_date?: string;
  urls: string[];
  /** the organiser's length of each video in seconds (the content's `duration`); none where not given */
  durations?: (number | undefined)[];
}

export async function createContent(db: Db, congressId: number, days: DaySpec[]): Promise<void> {
  await db.insert(schema.congressContents).values({
    congressId,
    type: "vimeo-url",
    data: {
      days: days.map((d, i) => ({
        name: d.name ?? `Tag ${i + 1}`,
        exclusive_date: d.exclusive_date ?? "",
        videos: d.urls.map((url, j) => ({
          url,
          comment: `Vortrag ${j + 1}`,
          ...(d.durations?.[j] !== undefined && { duration: d.durations[j] }),
        })),
      })),
    },
  });
}

export async function createPackage(
  db: Db,
  congressId: number,
  values: Partial<typeof schema.congressPackages.$inferInsert> = {},
): Promise<typeof schema.congressPackages.$inferSelect> {
  const n = next();
  const [row] = await db
    .insert(schema.congressPackages)
    .values({ name: `Paket ${n}`, congressId, externalId: 100_000 + n, ...values })
    .returning();
  if (!row) {
    throw new Error("package not created");
  }
  return row;
}

/** After inserts with explicit ids the serial sequence must move past them. */
export async function syncPackageSequence(db: Db): Promise<void> {
  await db.execute(
    sql`SELECT setval(pg_get_serial_sequence('congress_packages', 'id'), (SELECT max(id) FROM congress_packages))`,
  );
}

export async function packageOrder(
  db: Db,
  userId: number,
  congressPackageId: number,
  status: "paid" | "canceled",
): Promise<void> {
  await db
    .insert(schema.congressPackageOrders)
    .values({ userId, congressPackageId, status, externalId: `ORDER-P-${next()}` });
}

export async function ticketOrder(
  db: Db,
  userId: number,
  congressId: number,
  status: "paid" | "canceled",
): Promise<void> {
  await db
    .insert(schema.congressTicketOrders)
    .values({ userId, congressId, status, externalId: `ORDER-T-${next()}` });
}

export async function participate(db: Db, userId: number, congressId: number): Promise<number> {
  const [row] = await db.insert(schema.participations).values({ userId, congressId }).returning();
  if (!row) {
    throw new Error("participation not created");
  }
  return row.id;
}

export interface TrpcAnswer {
  status: number;
  /** the raw response body, to check that no video address leaks */
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  data: any;
  error: { title: string; detail: string; reason?: string; code: string } | undefined;
  headers: Record<string, string | string[] | number | undefined>;
}

interface CallOptions {
  token?: string | undefined;
  /** separate client addresses keep the per-IP rate limits of different tests apart */
  ip?: string;
}

function answer(res: {
  statusCode: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}): TrpcAnswer {
  const parsed = JSON.parse(res.body);
  return {
    status: res.statusCode,
    body: res.body,
    headers: res.headers,
    data: parsed.result?.data?.json,
    error: parsed.error?.json?.data,
  };
}

const authHeaders = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

export async function trpcQuery(
  t: TestApp,
  path: string,
  input?: unknown,
  options: CallOptions = {},
): Promise<TrpcAnswer> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const res = await t.app.inject({
    method: "GET",
    url: `/trpc/${path}${query}`,
    headers: authHeaders(options.token),
    remoteAddress: options.ip ?? "127.0.0.1",
  });
  return answer(res);
}

export async function trpcMutation(
  t: TestApp,
  path: string,
  input: unknown,
  options: CallOptions = {},
): Promise<TrpcAnswer> {
  const res = await t.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    headers: { ...authHeaders(options.token), "content-type": "application/json" },
    payload: JSON.stringify({ json: input }),
    remoteAddress: options.ip ?? "127.0.0.1",
  });
  return answer(res);
}

/** A multipart body with plain fields, as the spec's forms send them. */
export function multipart(fields: Record<string, string>): {
  headers: Record<string, string>;
  payload: string;
} {
  const boundary = "----visitor-test-boundary";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join("")}--${boundary}--\r\n`,
  };
}
