import { createHash } from "node:crypto";
import type { Db } from "@app/db";
import { Param as DrizzleParam, is, Placeholder, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/** A value of a statement built once: the value itself, or the placeholder each call fills in. */
export type Param<T> = T | Placeholder<string, T>;

/** Each value of `Values` as the placeholder of its name. */
export type Placeholders<Values> = { [K in keyof Values]-?: Placeholder<K & string, Values[K]> };

const dialect = new PgDialect();

/**
 * One parameter of the rendered statement: a value fixed when it was built, or a placeholder's name (with
 * the column's encoder when drizzle bound it to a column, e.g. in `eq(column, placeholder)`).
 */
type Slot = { fixed: unknown } | { name: string; encode?: (value: unknown) => unknown };

function slotOf(param: unknown): Slot {
  if (is(param, Placeholder)) {
    return { name: param.name };
  }
  if (is(param, DrizzleParam) && is(param.value, Placeholder)) {
    const { encoder } = param;
    return {
      name: param.value.name,
      encode: (value) => (value === null ? null : encoder.mapToDriverValue(value)),
    };
  }
  return { fixed: param };
}

/**
 * A statement of one shape for the hottest writes (ADR 0108, docs/performance/history.md "Heartbeats"): built
 * once with drizzle's `sql` from `build`, everything a call changes a `sql.placeholder` of `Values`, and
 * run as a prepared statement named by its text, so PostgreSQL parses and plans it once per connection and
 * a call neither builds nor renders the statement again but only lines up its values. A statement whose
 * text depends on a call (a branch taken in SQL's shape) needs one of these per shape.
 */
export function preparedStatement<Values extends object, Row>(
  build: (values: Placeholders<Values>) => SQL,
): (db: Db, values: Values) => Promise<Row | undefined> {
  let compiled: { name: string; text: string; slots: Slot[] } | undefined;
  const compile = () => {
    const named = new Proxy({}, { get: (_target, name) => sql.placeholder(String(name)) });
    const { sql: text, params } = dialect.sqlToQuery(build(named as Placeholders<Values>));
    return {
      name: `shape_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`,
      text,
      slots: params.map(slotOf),
    };
  };
  return async (db, values) => {
    compiled ??= compile();
    const { name, text, slots } = compiled;
    const given = values as Record<string, unknown>;
    const { rows } = await db.$client.query({
      name,
      text,
      values: slots.map((slot) => {
        if ("fixed" in slot) {
          return slot.fixed;
        }
        if (!(slot.name in given)) {
          throw new Error(`no value for placeholder ${slot.name}`);
        }
        return slot.encode ? slot.encode(given[slot.name]) : given[slot.name];
      }),
    });
    return rows[0] as Row | undefined;
  };
}
