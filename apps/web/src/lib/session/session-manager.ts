import type { Role } from "@app/shared";

export interface SessionUser {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  roles: Role[];
  newsletter: boolean;
}

export interface SessionState {
  token: string | null;
  /** epoch milliseconds */
  expiresAt: number | null;
  user: SessionUser | null;
}

export interface IssuedSession {
  token: string;
  expiresAt: number;
  user: SessionUser;
}

export interface SessionManagerOptions {
  /** asks the server for a new access token (the refresh token travels in the httpOnly cookie) */
  refresh: () => Promise<IssuedSession>;
  now?: () => number;
  /** renew this long before the token expires, so a request never carries an expired token */
  skewMs?: number;
}

const EMPTY: SessionState = { token: null, expiresAt: null, user: null };

/**
 * Holds the access token in memory (never in storage) and renews it. When the token has expired, exactly
 * one refresh request is made and shared by all callers waiting for a token; a failed refresh logs out.
 */
export function createSessionManager(options: SessionManagerOptions) {
  const now = options.now ?? Date.now;
  const skewMs = options.skewMs ?? 30_000;
  let state: SessionState = EMPTY;
  let inFlight: Promise<string | null> | null = null;
  const listeners = new Set<() => void>();

  const set = (next: SessionState) => {
    state = next;
    for (const listener of listeners) {
      listener();
    }
  };

  const fresh = () => state.token !== null && state.expiresAt !== null && state.expiresAt - skewMs > now();

  function refreshOnce(): Promise<string | null> {
    inFlight ??= options
      .refresh()
      .then((session) => {
        set({ token: session.token, expiresAt: session.expiresAt, user: session.user });
        return session.token;
      })
      .catch(() => {
        set(EMPTY);
        return null;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  return {
    getState: (): SessionState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** after login or a successful refresh */
    signIn(session: IssuedSession): void {
      set({ token: session.token, expiresAt: session.expiresAt, user: session.user });
    },
    updateUser(user: SessionUser): void {
      set({ ...state, user });
    },
    /**
     * A usable access token, refreshing (once, shared) when it has expired; null when logged out.
     * Anonymous visitors cause no refresh request, but wait for a restore that is under way.
     */
    async getToken(): Promise<string | null> {
      if (fresh()) {
        return state.token;
      }
      if (state.token === null) {
        return inFlight ?? null;
      }
      return refreshOnce();
    },
    /** At start-up: try to restore the session from the refresh cookie. */
    restore(): Promise<string | null> {
      return refreshOnce();
    },
    signOut(): void {
      set(EMPTY);
    },
  };
}

export type SessionManager = ReturnType<typeof createSessionManager>;
