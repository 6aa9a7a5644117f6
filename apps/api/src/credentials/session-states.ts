import type { Db } from "@app/db";
import { UserCache, type UserCacheOptions } from "../lib/user-cache";
import type { SessionUser } from "./access-token";

export interface SessionState {
  active: boolean;
  sessionVersion: number;
  /** the account's sessions ended by a logout or a reused refresh token (refresh-token families) */
  endedSessions: string[];
}

/**
 * The sessions of account `u` that were ended while refresh tokens of theirs still exist (a revoked
 * family's access tokens expire long before its refresh tokens, which the daily retention deletes).
 */
const ENDED_SESSIONS_SQL = `coalesce((SELECT json_agg(DISTINCT r.family_id) FROM refresh_tokens r
      WHERE r.user_id = u.id AND r.revoked_at IS NOT NULL), '[]')`;

/**
 * Whether an access token still stands for a live session: its account exists, is active, the token
 * was issued under the account's current session version (raised by a password reset, a two-factor
 * switch, a deactivation: `endAllSessions`), and its own session was not ended ("Abmelden", or its
 * refresh token reused). Checked on every authenticated call, so what ends sessions ends them at once,
 * not when the token expires.
 *
 * Cheap on the hot path: each instance keeps the states it has read and drops them on the same database
 * change notifications as the overview's kept answers (every write to `users` announces its ids,
 * migration 0009); while that channel is not heard, nothing is kept and every call reads the database.
 */
export class SessionStates extends UserCache<SessionState | null> {
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
    return (
      state?.active === true &&
      state.sessionVersion === user.sessionVersion &&
      !state.endedSessions.includes(user.sessionId)
    );
  }

  async #state(userId: number): Promise<SessionState | null> {
    const kept = this.kept(userId);
    if (kept !== undefined) {
      return kept;
    }
    return this.keep(userId, () => this.#read(userId));
  }

  async #read(userId: number): Promise<SessionState | null> {
    const { rows } = await this.db.$client.query<SessionState>({
      name: "session_state",
      text: `SELECT u.active, u.session_version AS "sessionVersion", ${ENDED_SESSIONS_SQL} AS "endedSessions"
        FROM users u WHERE u.id = $1`,
      values: [userId],
    });
    return rows[0] ?? null;
  }
}
