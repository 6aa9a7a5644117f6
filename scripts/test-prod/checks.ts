import type { TestSmtpServer } from "../../apps/api/src/testing/smtp";
import { type Bundle, expectThat, Failure, portIsFree, sleep } from "./processes";

/** The requests of a browser behind the operator's TLS proxy (TRUST_PROXY=1). */
const viaHttpsProxy = { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7" };
/** How soon the registration mail must reach the SMTP server after the registration was answered. */
export const MAIL_WITHIN_MS = 5_000;
const CONFIRM_SUBJECT = "Bitte bestätigen Sie Ihre E-Mail-Adresse";

async function get(bundle: Bundle, path: string, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await fetch(`${bundle.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Failure(`expected GET ${path} to answer\n  but it failed: ${String(error)}`, bundle.tail());
  }
}

export async function checkReady(bundle: Bundle): Promise<void> {
  const res = await get(bundle, "/readyz");
  const body = await res.text();
  expectThat(
    res.status === 200 && body.includes('"ok"'),
    '/readyz to answer 200 {"status":"ok"}',
    `it answered ${res.status} ${body}`,
    bundle.tail(),
  );
}

export async function checkHsts(bundle: Bundle): Promise<void> {
  const res = await get(bundle, "/healthz", viaHttpsProxy);
  const hsts = res.headers.get("strict-transport-security");
  expectThat(
    hsts !== null && /max-age=\d{7,}/.test(hsts),
    "a request with X-Forwarded-Proto: https to get strict-transport-security: max-age=<at least 4 months>",
    `the header was ${hsts === null ? "missing" : `"${hsts}"`}`,
    bundle.tail(),
  );
}

/** index.html is revalidated on every load; a hashed file under /assets is kept for a year (static.ts). */
export async function checkWebApp(bundle: Bundle): Promise<void> {
  for (const path of ["/", "/login"]) {
    const res = await get(bundle, path, { accept: "text/html", "accept-encoding": "br, gzip" });
    const html = await res.text();
    const headers = `${res.status}, content-type ${res.headers.get("content-type")}, cache-control ${res.headers.get("cache-control")}`;
    expectThat(
      res.status === 200 &&
        res.headers.get("content-type")?.startsWith("text/html") === true &&
        res.headers.get("cache-control") === "no-cache" &&
        html.includes('<div id="app">'),
      `GET ${path} to serve the web app's index.html with cache-control: no-cache`,
      `it answered ${headers}, body starting ${JSON.stringify(html.slice(0, 80))}`,
      bundle.tail(),
    );
    if (path !== "/") {
      continue;
    }
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expectThat(asset !== undefined, "index.html to load a script from /assets/", "it names none", html);
    const res2 = await get(bundle, asset, { "accept-encoding": "br, gzip" });
    const cache = res2.headers.get("cache-control");
    expectThat(
      res2.status === 200 && cache === "public, max-age=31536000, immutable",
      `GET ${asset} to answer 200 with cache-control: public, max-age=31536000, immutable`,
      `it answered ${res2.status} with cache-control: ${cache}`,
      bundle.tail(),
    );
    expectThat(
      res2.headers.get("content-type")?.includes("javascript") === true,
      `${asset} to be served as JavaScript`,
      `its content-type was ${res2.headers.get("content-type")}`,
    );
  }
}

async function post(bundle: Bundle, path: string, fields: Record<string, string>): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, value);
  }
  try {
    return await fetch(`${bundle.url}${path}`, {
      method: "POST",
      body: form,
      headers: viaHttpsProxy,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Failure(`expected POST ${path} to answer\n  but it failed: ${String(error)}`, bundle.tail());
  }
}

async function expectStatus(bundle: Bundle, what: string, res: Response, status: number): Promise<void> {
  if (res.status !== status) {
    throw new Failure(
      `expected ${what} to answer ${status}\n  but it answered ${res.status} ${await res.text()}`,
      bundle.tail(),
    );
  }
}

/**
 * A new visitor as the web app makes one, over the public REST paths: register, read the confirmation
 * mail from the test's SMTP server, confirm, log in. Returns how long the mail took.
 */
export async function checkRegistrationAndLogin(bundle: Bundle, smtp: TestSmtpServer): Promise<number> {
  const email = `test-prod.${Date.now()}@example.com`;
  const password = "sicheres-Passwort-1";
  const user = {
    firstname: "Erika",
    lastname: "Muster",
    email,
    password,
    dataProtection: true,
    newsletter: false,
  };
  const registered = await post(bundle, "/api/register/", { user: JSON.stringify(user) });
  await expectStatus(bundle, "POST /api/register/", registered, 201);
  const since = Date.now();
  const mail = await smtp
    .waitFor((m) => m.to.includes(email) && m.subject === CONFIRM_SUBJECT, MAIL_WITHIN_MS)
    .catch(() => {
      const received = smtp.mails.map((m) => `"${m.subject}" to ${m.to}`).join(", ");
      throw new Failure(
        `expected the mail "${CONFIRM_SUBJECT}" to ${email} at the test's SMTP server within ${MAIL_WITHIN_MS / 1000} s of registering\n` +
          `  but none arrived (the SMTP server received ${received || "no mail at all"})`,
        bundle.tail(),
      );
    });
  const mailMs = Date.now() - since;
  const link = mail.html.match(/href="https?:\/\/[^/"]+\/confirm-mail\/([^/"]+)\/([^/"]+)"/);
  expectThat(
    link !== null,
    "a /confirm-mail/<userId>/<hash> link in the mail",
    `the mail was:\n${mail.text}`,
  );
  const confirmed = await post(bundle, "/api/confirm-mail/", { userId: link[1] ?? "", hash: link[2] ?? "" });
  await expectStatus(bundle, "POST /api/confirm-mail/ with the mail's link", confirmed, 200);

  const login = await post(bundle, "/api/auth/login", { email, password });
  await expectStatus(bundle, "POST /api/auth/login", login, 200);
  const refresh = login.headers.getSetCookie().find((cookie) => cookie.startsWith("refresh_token="));
  const attributes = refresh?.split(";").map((part) => part.trim().toLowerCase()) ?? [];
  expectThat(
    attributes.includes("secure") && attributes.includes("httponly"),
    "the login's refresh_token cookie to be Secure and HttpOnly",
    refresh === undefined
      ? `no refresh_token cookie was set (set-cookie: ${login.headers.getSetCookie().join(" | ")})`
      : `it was set as "${refresh.replace(/=[^;]*/, "=…")}"`,
    bundle.tail(),
  );
  return mailMs;
}

/** SIGTERM as a process manager sends it: exit code 0 within 10 s, and the port free again. */
export async function checkSigterm(bundle: Bundle): Promise<number> {
  const since = Date.now();
  bundle.child.kill("SIGTERM");
  const result = await Promise.race([bundle.exited, sleep(10_000).then(() => undefined)]);
  const ms = Date.now() - since;
  expectThat(
    result !== undefined,
    "the server to exit within 10 s of SIGTERM",
    "it was still running after 10 s",
    bundle.tail(),
  );
  expectThat(
    result.code === 0 && result.signal === null,
    "the server to exit with code 0 after SIGTERM",
    `it ended with ${result.signal ?? `exit code ${result.code}`} after ${ms} ms`,
    bundle.tail(),
  );
  expectThat(
    await portIsFree(bundle.port),
    `port ${bundle.port} to be free after the exit`,
    "it is still taken",
  );
  return ms;
}
