import type { Result } from "lighthouse";

/**
 * Logs the demo participant in over the REST path the login form uses and returns the refresh cookie as a
 * request header. The web app keeps its access token in memory and restores the session on load from
 * this httpOnly cookie, so the cookie alone makes a fresh page load a logged-in one.
 */
export async function demoSessionCookie(serverUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${serverUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) {
    throw new Error(`demo login failed: ${response.status} ${await response.text()}`);
  }
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("refresh_token="));
  if (!cookie) {
    throw new Error("demo login set no refresh_token cookie");
  }
  return cookie;
}

interface RequestRow {
  url: string;
  statusCode: number;
}

function requests(lhr: Result): RequestRow[] {
  const details = lhr.audits["network-requests"]?.details;
  if (details?.type !== "table") {
    return [];
  }
  return details.items.map((item) => ({
    url: typeof item.url === "string" ? item.url : "",
    statusCode: typeof item.statusCode === "number" ? item.statusCode : 0,
  }));
}

/**
 * Proof that Lighthouse measured the logged-in overview and not the login form it redirects to: the page
 * stayed on `/`, the session refresh succeeded and the overview query (sent only by the rendered overview,
 * whose heading greets the participant with its data) answered 200.
 */
export function loggedInProblems(lhr: Result): string[] {
  const problems: string[] = [];
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
  if (finalPath !== "/") {
    problems.push(`final URL is ${lhr.finalDisplayedUrl}`);
  }
  const rows = requests(lhr);
  const answered = (pattern: string) => rows.some((r) => r.url.includes(pattern) && r.statusCode === 200);
  if (!answered("/api/auth/token/refresh")) {
    problems.push("the session refresh did not answer 200");
  }
  if (!answered("congress.getOverview")) {
    problems.push("the overview query did not answer 200");
  }
  return problems;
}
