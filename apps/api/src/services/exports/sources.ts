import { type Db, schema } from "@app/db";
import {
  berlinDate,
  isTicketed,
  ORDER_STATUS_LABELS,
  type OrderKind,
  type OrderStatus,
  type ZOrderListInput,
  type ZUserListInput,
} from "@app/shared";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { userColumns, userFilter } from "../admin/users";
import { orderSearch } from "../commerce/admin-orders";
import { ORDER_KINDS, type OrderTableSchema } from "../commerce/order-kinds";
import type { Clock, ServiceDeps } from "../deps";
import type { Column, ExportFormat, TableExport } from "./table-file";

const { users, participations, congresses, congressTicketOrders } = schema;

/**
 * Rows per database round trip. Each batch is one short query (keyset: the next rows after the last one
 * sent), so no connection is held while a slow download runs and every query stays far below the
 * query timeout; 1,000 rows keep the memory of a batch around a megabyte.
 */
export const EXPORT_BATCH_SIZE = 1000;

/** Batches of rows, each fetched after the last key of the one before, until a batch comes back short. */
async function* keysetBatches<Row, Key>(
  fetch: (after: Key | undefined) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row[]> {
  let after: Key | undefined;
  for (;;) {
    const rows = await fetch(after);
    if (rows.length > 0) {
      yield rows;
    }
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH_SIZE) {
      return;
    }
    after = keyOf(last);
  }
}

const yesNo = (value: boolean) => (value ? "ja" : "nein");
const statusLabel = (status: string | null) =>
  status === null ? null : (ORDER_STATUS_LABELS[status as OrderStatus] ?? status);

/** A file name part from an event title: lower case ASCII, umlauts spelled out, words joined by hyphens. */
export function slug(text: string): string {
  const spelled = text
    .toLowerCase()
    .replaceAll("ä", "ae")
    .replaceAll("ö", "oe")
    .replaceAll("ü", "ue")
    .replaceAll("ß", "ss")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
  const words = spelled.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return words.slice(0, 60).replace(/-+$/, "") || "veranstaltung";
}

export interface NamedExport<Row> extends TableExport<Row> {
  /** e.g. `teilnehmende-jahreskongress-2026-2026-11-23.csv` */
  fileName: string;
}

/** what every export reads: the database, and the clock for the date in the file's name */
type ExportDeps = Pick<ServiceDeps, "db" | "clock">;

export const exportFileName = (clock: Clock, base: string, format: ExportFormat) =>
  `${base}-${berlinDate(clock.now())}.${format}`;

// ---------------------------------------------------------------------------------------------------------
// participants of one event

interface ParticipantRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  signedUpAt: Date;
  orderNumber: string | null;
  orderStatus: string | null;
  attendedDays: number;
  attendedOn: string | null;
}

/**
 * The participants of an event in sign-up order: name, e-mail, sign-up time, for ticketed events the
 * ticket order (the paid one if there is one, else the newest) and the days they attended.
 */
export async function participantsExport(
  { db, clock }: ExportDeps,
  congressId: number,
  format: ExportFormat,
): Promise<NamedExport<ParticipantRow>> {
  const [congress] = await db
    .select({
      title: congresses.title,
      digistoreIdTicket: congresses.digistoreIdTicket,
      digistoreIdTicketAndPackage: congresses.digistoreIdTicketAndPackage,
    })
    .from(congresses)
    .where(eq(congresses.id, congressId));
  if (!congress) {
    throw new AppError("NOT_FOUND", `congress ${congressId}`, "Die Veranstaltung wurde nicht gefunden.");
  }
  const ticketed = isTicketed(congress);
  const fetch = async (after: number | undefined) => {
    const result = await db.execute<{
      id: number;
      firstname: string;
      lastname: string;
      email: string;
      signed_up_ms: number;
      order_number: string | null;
      order_status: string | null;
      attended_days: number;
      attended_on: string | null;
    }>(sql`
      SELECT p.id, u.firstname, u.lastname, u.email,
        (extract(epoch FROM p.created_at) * 1000)::float8 AS signed_up_ms,
        t.external_id AS order_number, t.status AS order_status,
        coalesce(a.days, 0)::int AS attended_days, a.list AS attended_on
      FROM ${participations} p
      JOIN ${users} u ON u.id = p.user_id
      LEFT JOIN LATERAL (
        SELECT o.external_id, o.status FROM ${congressTicketOrders} o
        WHERE ${ticketed} AND o.user_id = p.user_id AND o.congress_id = p.congress_id
        ORDER BY (o.status = 'paid') DESC, o.created_at DESC, o.id DESC LIMIT 1
      ) t ON true
      LEFT JOIN LATERAL (
        SELECT count(*) AS days, string_agg(to_char(d.day, 'DD.MM.YYYY'), ', ' ORDER BY d.day) AS list
        FROM attendances d WHERE d.user_id = p.user_id AND d.congress_id = p.congress_id
      ) a ON true
      WHERE p.congress_id = ${congressId} AND p.id > ${after ?? 0}
      ORDER BY p.id
      LIMIT ${EXPORT_BATCH_SIZE}`);
    return result.rows.map(
      (r): ParticipantRow => ({
        id: r.id,
        firstname: r.firstname,
        lastname: r.lastname,
        email: r.email,
        // a raw query answers timestamps as text: milliseconds since the epoch need no parsing
        signedUpAt: new Date(r.signed_up_ms),
        orderNumber: r.order_number,
        orderStatus: r.order_status,
        attendedDays: r.attended_days,
        attendedOn: r.attended_on,
      }),
    );
  };
  const columns: Column<ParticipantRow>[] = [
    { header: "Vorname", width: 18, value: (r) => r.firstname },
    { header: "Nachname", width: 18, value: (r) => r.lastname },
    { header: "E-Mail", width: 32, value: (r) => r.email },
    { header: "Angemeldet am", width: 17, kind: "datetime", value: (r) => r.signedUpAt },
    ...(ticketed
      ? [
          { header: "Ticket-Bestellnummer", width: 22, value: (r: ParticipantRow) => r.orderNumber },
          { header: "Ticket-Status", width: 14, value: (r: ParticipantRow) => statusLabel(r.orderStatus) },
        ]
      : []),
    { header: "Anwesende Tage", width: 16, value: (r) => r.attendedDays },
    { header: "Anwesend am", width: 28, value: (r) => r.attendedOn },
  ];
  return {
    sheetName: "Teilnehmende",
    columns,
    batches: keysetBatches(fetch, (r) => r.id),
    fileName: exportFileName(clock, `teilnehmende-${slug(congress.title)}`, format),
  };
}

// ---------------------------------------------------------------------------------------------------------
// package and ticket orders, filtered like the order tables

interface OrderRow {
  id: number;
  /** created_at as PostgreSQL prints it: microseconds, which a JS Date would lose (the keyset needs them) */
  cursorAt: string;
  externalId: string;
  status: string;
  createdAt: Date;
  email: string;
  firstname: string;
  lastname: string;
  product: string | null;
  congressTitle: string;
}

/** What differs between the two order tables: the product's name (packages only) and the event's title. */
interface OrderProduct {
  product: SQL<string | null>;
  congressTitle: SQL<string>;
}

/** The rows of an order table matching the table's search, newest first as the table lists them. */
function orderBatches(db: Db, table: OrderTableSchema, search: string, names: OrderProduct) {
  const matching = orderSearch(table, search);
  const fetch = (after: { at: string; id: number } | undefined): Promise<OrderRow[]> => {
    const next = after
      ? sql`(${table.createdAt}, ${table.id}) < (${after.at}::timestamptz, ${after.id})`
      : undefined;
    return db
      .select({
        id: table.id,
        cursorAt: sql<string>`${table.createdAt}::text`,
        externalId: table.externalId,
        status: table.status,
        createdAt: table.createdAt,
        email: users.email,
        firstname: users.firstname,
        lastname: users.lastname,
        product: names.product,
        congressTitle: names.congressTitle,
      })
      .from(table)
      .innerJoin(users, eq(users.id, table.userId))
      .where(and(matching, next))
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(EXPORT_BATCH_SIZE);
  };
  return keysetBatches(fetch, (r) => ({ at: r.cursorAt, id: r.id }));
}

const orderColumns = (productHeader: string | null): Column<OrderRow>[] => [
  { header: "Bestellnummer", width: 22, value: (r) => r.externalId },
  { header: "Status", width: 12, value: (r) => statusLabel(r.status) },
  { header: "Angelegt am", width: 17, kind: "datetime", value: (r) => r.createdAt },
  { header: "E-Mail", width: 32, value: (r) => r.email },
  { header: "Vorname", width: 18, value: (r) => r.firstname },
  { header: "Nachname", width: 18, value: (r) => r.lastname },
  ...(productHeader ? [{ header: productHeader, width: 30, value: (r: OrderRow) => r.product }] : []),
  { header: "Veranstaltung", width: 30, value: (r) => r.congressTitle },
];

/** The orders of a kind matching the order table's search, as a file. */
export function orderExport(
  { db, clock }: ExportDeps,
  kind: OrderKind,
  input: Pick<z.output<typeof ZOrderListInput>, "search">,
  format: ExportFormat,
): NamedExport<OrderRow> {
  const { table, export: file } = ORDER_KINDS[kind];
  return {
    sheetName: file.sheetName,
    columns: orderColumns(file.productHeader),
    batches: orderBatches(db, table, input.search, file),
    fileName: exportFileName(clock, file.fileSlug, format),
  };
}

// ---------------------------------------------------------------------------------------------------------
// users, filtered like the users table

interface UserRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  admin: boolean;
  active: boolean;
  newsletter: boolean;
  createdAt: Date;
  congresses: string | null;
}

export function usersExport(
  { db, clock }: ExportDeps,
  input: Pick<z.output<typeof ZUserListInput>, "name" | "email">,
  format: ExportFormat,
): NamedExport<UserRow> {
  const where = userFilter(input);
  const fetch = (
    after: { lastname: string; firstname: string; id: number } | undefined,
  ): Promise<UserRow[]> => {
    const next: SQL | undefined = after
      ? sql`(${users.lastname}, ${users.firstname}, ${users.id}) > (${after.lastname}, ${after.firstname}, ${after.id})`
      : undefined;
    return db
      .select({
        ...userColumns,
        newsletter: users.newsletter,
        createdAt: users.createdAt,
        congresses: sql<
          string | null
        >`(SELECT string_agg(c.title, ', ' ORDER BY p.created_at) FROM ${participations} p JOIN ${congresses} c ON c.id = p.congress_id WHERE p.user_id = "users"."id")`,
      })
      .from(users)
      .where(and(where, next))
      .orderBy(asc(users.lastname), asc(users.firstname), asc(users.id))
      .limit(EXPORT_BATCH_SIZE);
  };
  return {
    sheetName: "Benutzer",
    columns: [
      { header: "Vorname", width: 18, value: (r) => r.firstname },
      { header: "Nachname", width: 18, value: (r) => r.lastname },
      { header: "E-Mail", width: 32, value: (r) => r.email },
      { header: "Administrator", width: 14, value: (r) => yesNo(r.admin) },
      { header: "Aktiv", width: 8, value: (r) => yesNo(r.active) },
      { header: "Newsletter", width: 11, value: (r) => yesNo(r.newsletter) },
      { header: "Registriert am", width: 17, kind: "datetime", value: (r) => r.createdAt },
      { header: "Veranstaltungen", width: 40, value: (r) => r.congresses },
    ],
    batches: keysetBatches(fetch, (r) => ({ lastname: r.lastname, firstname: r.firstname, id: r.id })),
    fileName: exportFileName(clock, "benutzer", format),
  };
}
