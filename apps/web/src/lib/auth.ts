import { type Role, toErrorBody } from "@app/shared";
import { useSyncExternalStore } from "react";
import { type EarlyAnswer, takeEarly } from "./boot";
import { createSessionManager, type IssuedSession, type SessionState } from "./session/session-manager";

async function post(url: string, body: unknown = {}): Promise<EarlyAnswer> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { ok: response.ok, data: await response.json().catch(() => ({})) };
}

function unwrap<T>(answer: EarlyAnswer): T {
  if (!answer.ok) {
    throw toErrorBody(answer.data);
  }
  return answer.data as T;
}

async function postJson<T>(url: string, body: unknown = {}): Promise<T> {
  return unwrap<T>(await post(url, body));
}

/** The first refresh takes the answer boot.js already asked for (once); later ones ask the server. */
async function refreshSession(): Promise<IssuedSession> {
  const early = takeEarly("__sessionRestore");
  const answer = (early && (await early)) ?? (await post("/api/auth/token/refresh"));
  return unwrap<IssuedSession>(answer);
}

/**
 * The browser's session: the access token lives only in memory, the refresh token in an httpOnly cookie.
 * Refresh goes over plain fetch (REST) so it never waits on the tRPC link that needs its token.
 */
export const session = createSessionManager({
  refresh: refreshSession,
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
