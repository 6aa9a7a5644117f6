import { type Db, schema } from "@app/db";
import { eq } from "drizzle-orm";
import { UserCache, type UserCacheOptions } from "../lib/user-cache";
import type { SessionUser } from "./access-token";

interface State {
  active: boolean;
  sessionVersion: number;
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
export class SessionStates extends UserCache<State | null> {
  constructor(
    private readonly db: Db,
    options: UserCacheOptions,
  ) {
    super(options);
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
    const kept = this.kept(userId);
    if (kept !== undefined) {
      return kept;
    }
    return this.keep(userId, async () => {
      const { users } = schema;
      const [row] = await this.db
        .select({ active: users.active, sessionVersion: users.sessionVersion })
        .from(users)
        .where(eq(users.id, userId));
      return row ?? null;
    });
  }
}
