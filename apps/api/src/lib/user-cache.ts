/** The users one notification of the change channel names: comma-separated ids, or `*` (and anything unreadable) for all. */
export function changedUsers(payload: string | undefined): number[] | "all" {
  const ids = (payload ?? "").split(",").map(Number);
  return payload === "*" || ids.some((id) => !Number.isSafeInteger(id) || id <= 0) ? "all" : ids;
}

/** What keeps data of users and must hear of their changes (the overview's answers, the session states). */
export interface ChangeSubscriber {
  readonly enabled: boolean;
  /** whether changes are heard; both ways everything kept so far is forgotten */
  setLive(live: boolean): void;
  /** applies one notification of the change channel */
  applyNotification(payload: string | undefined): void;
}

export interface UserCacheOptions {
  /** how long a value is kept at most (0 = never kept) */
  ttlMs: number;
  /** how many users' values are kept at most; the oldest go first */
  maxEntries: number;
  /** called whenever everything is dropped: what else is built from the same data goes too */
  onDropAll?: () => void;
}

/** A computation in progress; a change to its user while it runs makes its value unfit to keep. */
interface Fill {
  readonly userId: number;
  stale: boolean;
}

/**
 * One value per user, kept only while this instance hears every change: the database announces each
 * write that concerns a user (`applyNotification`, see overview-cache.ts for the listener), and while that
 * connection is down nothing is kept. A computation that overlaps a change of its user is not kept (it may
 * have read the old state). Values also expire after `ttlMs`, as a safety net.
 */
export class UserCache<V> implements ChangeSubscriber {
  readonly #entries = new Map<number, { value: V; expiresAt: number }>();
  readonly #fills = new Set<Fill>();
  #live = false;

  constructor(private readonly options: UserCacheOptions) {}

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.options.maxEntries > 0;
  }

  /** true while changes are heard (values are kept and served) */
  get live(): boolean {
    return this.#live;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The kept value of `userId`, unless it has expired. */
  protected kept(userId: number): V | undefined {
    const entry = this.#entries.get(userId);
    if (entry && entry.expiresAt <= performance.now()) {
      this.#entries.delete(userId);
      return undefined;
    }
    return entry?.value;
  }

  /** Forgets the kept value of `userId` only (a computation in progress stays fit to keep). */
  protected forget(userId: number): void {
    this.#entries.delete(userId);
  }

  /** Computes the value of `userId` and keeps it, unless the user changed meanwhile or changes are not heard. */
  protected async keep(userId: number, compute: () => Promise<V>): Promise<V> {
    if (!this.#live) {
      return compute();
    }
    const fill: Fill = { userId, stale: false };
    this.#fills.add(fill);
    try {
      const value = await compute();
      if (!fill.stale && this.#live) {
        this.#entries.delete(userId);
        if (this.#entries.size >= this.options.maxEntries) {
          const oldest = this.#entries.keys().next().value;
          if (oldest !== undefined) {
            this.#entries.delete(oldest);
          }
        }
        this.#entries.set(userId, { value, expiresAt: performance.now() + this.options.ttlMs });
      }
      return value;
    } finally {
      this.#fills.delete(fill);
    }
  }

  /** Forgets the values of these users (their data changed). */
  drop(userIds: Iterable<number>): void {
    const dropped = new Set(userIds);
    for (const userId of dropped) {
      this.#entries.delete(userId);
    }
    for (const fill of this.#fills) {
      if (dropped.has(fill.userId)) {
        fill.stale = true;
      }
    }
  }

  /** Forgets every value (a change concerning everybody, or changes may have been missed). */
  dropAll(): void {
    this.#entries.clear();
    for (const fill of this.#fills) {
      fill.stale = true;
    }
    this.options.onDropAll?.();
  }

  setLive(live: boolean): void {
    this.dropAll();
    this.#live = live && this.enabled;
  }

  applyNotification(payload: string | undefined): void {
    const changed = changedUsers(payload);
    if (changed === "all") {
      this.dropAll();
    } else {
      this.drop(changed);
    }
  }
}
