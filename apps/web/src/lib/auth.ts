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

/**
 * The other tabs of this browser share the refresh cookie but each holds its own access token: when one signs
 * out, it tells the others, which drop theirs too (ADR 0081). Every browser we support has BroadcastChannel.
 */
const otherTabs = typeof BroadcastChannel === "function" ? new BroadcastChannel("kongress-session") : null;
const SIGNED_OUT = "signed-out";

/** Ends the session in this tab and in every other tab of the browser. */
export function signOutEverywhere(): void {
  session.signOut();
  otherTabs?.postMessage(SIGNED_OUT);
}

export async function logout(): Promise<void> {
  session.signOut();
  await postJson("/api/auth/logout").catch(() => undefined);
  // once the server has ended the refresh token, so no other tab restores the session by reloading
  signOutEverywhere();
}

/**
 * `then` runs in this tab when another one signed out while this one was signed in, after this tab dropped
 * its session as well.
 */
export function followSignOutsOfOtherTabs(then: () => void): void {
  otherTabs?.addEventListener("message", (event: MessageEvent) => {
    if (event.data === SIGNED_OUT && session.getState().user) {
      session.signOut();
      then();
    }
  });
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}

export function hasRole(state: SessionState, role: Role): boolean {
  return state.user?.roles.includes(role) ?? false;
}

export type AuthContext = typeof session;
