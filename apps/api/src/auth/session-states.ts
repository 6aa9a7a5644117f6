import { type Db, schema } from "@app/db";
import { eq } from "drizzle-orm";
import { type ChangeSubscriber, changedUsers } from "../services/visitor/overview-cache";
import type { SessionUser } from "./access-token";

interface State {
  active: boolean;
  sessionVersion: number;
  expiresAt: number;
}

/** A read in progress; a change to its account while it runs makes its result unfit to keep. */
interface Read {
  userId: number;
  stale: boolean;
}

export interface SessionStatesOptions {
  /** how long a state is kept at most (0 = never kept, every call asks the database) */
  ttlMs: number;
  maxEntries: number;
}

/**
 * Whether an access token still stands for a live session: its account exists, is active, and the token
 * was issued under the account's current session version (raised by a password reset, a two-factor
 * switch, a deactivation: `endAllSessions`). Checked on every authenticated call, so what ends sessions
 * ends them at once, not when the token expires.
 *
 * Cheap on the hot path: each instance keeps the states it has read and drops them on the same database
 * change notifications as the overview's kept answers (every write to `users` announces its ids,
 * migration 0009); while that channel is not heard, nothing is kept and every call reads the database.
 */
export class SessionStates implements ChangeSubscriber {
  readonly #states = new Map<number, State>();
  readonly #reads = new Set<Read>();
  #live = false;

  constructor(
    private readonly db: Db,
    private readonly options: SessionStatesOptions,
  ) {}

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.options.maxEntries > 0;
  }

  /** Whether the token's session is still valid. */
  async valid(user: SessionUser): Promise<boolean> {
    let state = await this.#state(user.id);
    if (state && state.sessionVersion < user.sessionVersion) {
      // a token newer than what is kept: the change that issued it has not been heard here yet
      this.drop([user.id]);
      state = await this.#state(user.id);
    }
    return state?.active === true && state.sessionVersion === user.sessionVersion;
  }

  async #state(userId: number): Promise<State | null> {
    const kept = this.#states.get(userId);
    if (kept && kept.expiresAt > performance.now()) {
      return kept;
    }
    this.#states.delete(userId);
    const read: Read = { userId, stale: false };
    const keep = this.#live;
    if (keep) {
      this.#reads.add(read);
    }
    try {
      const { users } = schema;
      const [row] = await this.db
        .select({ active: users.active, sessionVersion: users.sessionVersion })
        .from(users)
        .where(eq(users.id, userId));
      if (!row) {
        return null;
      }
      const state = { ...row, expiresAt: performance.now() + this.options.ttlMs };
      if (keep && !read.stale && this.#live) {
        if (this.#states.size >= this.options.maxEntries) {
          const oldest = this.#states.keys().next().value;
          if (oldest !== undefined) {
            this.#states.delete(oldest);
          }
        }
        this.#states.set(userId, state);
      }
      return state;
    } finally {
      this.#reads.delete(read);
    }
  }

  drop(userIds: Iterable<number>): void {
    const dropped = new Set(userIds);
    for (const userId of dropped) {
      this.#states.delete(userId);
    }
    for (const read of this.#reads) {
      if (dropped.has(read.userId)) {
        read.stale = true;
      }
    }
  }

  dropAll(): void {
    this.#states.clear();
    for (const read of this.#reads) {
      read.stale = true;
    }
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
