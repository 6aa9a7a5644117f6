import { berlinDate, type IsoDate } from "@app/shared";
import pg from "pg";
import { type ChangeSubscriber, UserCache } from "../../lib/user-cache";
import { type Overview, overview } from "./overview";
import type { ViewerDeps } from "./viewer";

/** The channel the database triggers of migration 0009 announce overview changes on. */
export const OVERVIEW_CHANNEL = "overview_changed";
/** how the listening connection shows in pg_stat_activity */
export const OVERVIEW_LISTENER_NAME = "overview-change-listener";

interface Entry {
  day: IsoDate;
  answer: Overview;
  /** the answer as the transport writes it, once it was asked for (`keptText`) */
  text?: string;
}

/**
 * The finished overview answer of each visitor, per Berlin day. At the congress opening thousands of
 * visitors refresh their overview again and again; answering them from here skips the database (ADR 0050).
 *
 * An answer is kept only while this instance hears every change: database triggers announce each write to
 * a table the overview reads (`OVERVIEW_CHANNEL`), `listenForOverviewChanges` drops the visitors named
 * there, and while that connection is down nothing is kept or answered from here (`UserCache`). Answers
 * also expire after `ttlMs` and when the day changes, as a safety net.
 */
export class OverviewCache extends UserCache<Entry> {
  /** The kept answer of `userId` for `day`, if any. */
  get(userId: number, day: IsoDate): Overview | undefined {
    return this.#today(userId, day)?.answer;
  }

  /**
   * The kept answer of `userId` for `day` as the transport writes it (`write`, run once per kept answer),
   * if any: the kept overview answered without building a response around it (`keptOverviewText`).
   */
  keptText(userId: number, day: IsoDate, write: (answer: Overview) => string): string | undefined {
    const entry = this.#today(userId, day);
    if (entry) {
      entry.text ??= write(entry.answer);
    }
    return entry?.text;
  }

  #today(userId: number, day: IsoDate): Entry | undefined {
    const entry = this.kept(userId);
    if (entry && entry.day !== day) {
      this.forget(userId);
      return undefined;
    }
    return entry;
  }

  /**
   * Computes the answer of `userId` for `day` and keeps it, unless the visitor's data changed while it
   * was computed or changes are not heard right now.
   */
  async fill(userId: number, day: IsoDate, compute: () => Promise<Overview>): Promise<Overview> {
    return (await this.keep(userId, async () => ({ day, answer: await compute() }))).answer;
  }
}

/** The visitor's overview (`congress.getOverview`): the kept answer of today, else a new one, kept. */
export async function keptOverview(
  ctx: ViewerDeps & { overviewCache: OverviewCache },
  userId: number,
): Promise<Overview> {
  const day = berlinDate(ctx.clock.now());
  return (
    ctx.overviewCache.get(userId, day) ?? ctx.overviewCache.fill(userId, day, () => overview(ctx, userId))
  );
}

/**
 * The visitor's kept overview of today as the transport writes it (`write`), if this instance keeps one:
 * kept-overview.ts answers it before tRPC's adapter (ADR 0148).
 */
export function keptOverviewText(
  ctx: Pick<ViewerDeps, "clock"> & { overviewCache: OverviewCache },
  userId: number,
  write: (answer: Overview) => string,
): string | undefined {
  return ctx.overviewCache.keptText(userId, berlinDate(ctx.clock.now()), write);
}

/**
 * A signed-in write (any request but GET and HEAD) drops kept answers on this instance before its answer
 * goes out, so the writer's next overview shows it even before the database's change notification arrives:
 * a visitor's own answer, or every answer after an admin's write (which may change anybody's).
 */
export function dropAfterWrite(cache: OverviewCache, user: { id: number; roles: readonly string[] }): void {
  if (user.roles.includes("ROLE_ADMIN")) {
    cache.dropAll();
  } else {
    cache.drop([user.id]);
  }
}

export interface ChangeListener {
  /** resolves once the first LISTEN succeeded or failed */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface ListenOptions {
  /** connection settings of the API's pool; the listener holds one connection of its own */
  connection: pg.ClientConfig;
  /** each is live only while the connection is */
  caches: ChangeSubscriber[];
  log: { warn(obj: object, msg: string): void };
  /** first wait before reconnecting (ms); doubles up to 30 s */
  retryMs?: number;
}

/**
 * Listens on `OVERVIEW_CHANNEL` with a connection of its own and applies each notification to `caches`.
 * They are live only while the connection is: when it breaks, everything is dropped and the listener
 * reconnects with a growing pause; after the new LISTEN everything is dropped again (notifications sent
 * in between are lost) before answers are kept again.
 */
export function listenForOverviewChanges(options: ListenOptions): ChangeListener {
  const { caches, log } = options;
  const setLive = (live: boolean) => {
    for (const cache of caches) {
      cache.setLive(live);
    }
  };
  const firstRetryMs = options.retryMs ?? 500;
  let retryMs = firstRetryMs;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((done) => {
    markReady = done;
  });

  const lost = (current: pg.Client, error?: Error) => {
    if (client !== current) {
      return;
    }
    client = undefined;
    setLive(false);
    current.end().catch(() => {});
    if (closed) {
      return;
    }
    log.warn({ err: error, retryMs }, "overview change listener lost its connection; answers are not kept");
    timer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  async function connect(): Promise<void> {
    if (closed) {
      return;
    }
    const current = new pg.Client({
      ...options.connection,
      keepAlive: true,
      application_name: OVERVIEW_LISTENER_NAME,
    });
    client = current;
    current.on("error", (error) => lost(current, error));
    current.on("end", () => lost(current));
    current.on("notification", (message) => {
      if (message.channel === OVERVIEW_CHANNEL) {
        for (const cache of caches) {
          cache.applyNotification(message.payload);
        }
      }
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${OVERVIEW_CHANNEL}`);
      if (client === current) {
        setLive(true);
        retryMs = firstRetryMs;
      }
    } catch (error) {
      lost(current, error as Error);
    } finally {
      markReady();
    }
  }

  if (caches.some((cache) => cache.enabled)) {
    void connect();
  } else {
    markReady();
  }
  return {
    ready,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      const current = client;
      client = undefined;
      setLive(false);
      await current?.end().catch(() => {});
    },
  };
}
