import { type Role, toErrorBody } from "@app/shared";
import { useSyncExternalStore } from "react";
import { createSessionManager, type IssuedSession, type SessionState } from "./session/session-manager";

async function postJson<T>(url: string, body: unknown = {}): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw toErrorBody(data);
  }
  return data as T;
}

/**
 * The browser's session: the access token lives only in memory, the refresh token in an httpOnly cookie.
 * Refresh goes over plain fetch (REST) so it never waits on the tRPC link that needs its token.
 */
export const session = createSessionManager({
  refresh: () => postJson<IssuedSession>("/api/auth/token/refresh"),
});

export async function logout(): Promise<void> {
  session.signOut();
  await postJson("/api/auth/logout").catch(() => undefined);
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}

export function hasRole(state: SessionState, role: Role): boolean {
  return state.user?.roles.includes(role) ?? false;
}

export type AuthContext = typeof session;
