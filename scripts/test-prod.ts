/**
 * `pnpm test:prod`: the production start as an operator does it, as a test. Builds (`pnpm build`), starts
 * a throwaway PostgreSQL, runs `pnpm db:migrate`, starts the bundle as `pnpm start` does (its V8 flags) with
 * NODE_ENV=production, its own secrets and TRUST_PROXY=1, and checks what an operator relies on:
 * /readyz, HSTS and Secure cookies behind an https proxy, the web app's cache headers, the registration
 * mail through an SMTP server of this test, one client behind nginx that writes its own X-Forwarded-For
 * entries (it stays one client for the sign-in limits), and a clean SIGTERM. Then it checks that the bundle refuses
 * the public development secrets wherever others could reach it (ADR 0053).
 * Each failure says what was expected and what happened, with the server's last log lines, and exits 1.
 */
import { rm } from "node:fs/promises";
import { defaultLocalStateDir, ensureDatabase, startEmbeddedPostgres } from "@app/db";
import { TestSmtpServer } from "../apps/api/src/testing/smtp";
import {
  checkHsts,
  checkReady,
  checkRegistrationAndLogin,
  checkSigterm,
  checkWebApp,
  MAIL_WITHIN_MS,
} from "./test-prod/checks";
import {
  Failure,
  killChildren,
  ownSecrets,
  run,
  sleep,
  startBundle,
  stopBundle,
  waitReady,
} from "./test-prod/processes";
import { checkSpoofedForwardedFor, startAppendingProxy } from "./test-prod/proxy";
import { checkRefused, refusals } from "./test-prod/refusals";

const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const cleanups: Array<() => Promise<unknown>> = [];

async function step<T>(name: string, task: () => Promise<T>, detail?: (result: T) => string): Promise<T> {
  const since = Date.now();
  process.stdout.write(`… ${name}\n`);
  const result = await task();
  console.log(`✓ ${name} (${seconds(since)}${detail ? `, ${detail(result)}` : ""})`);
  return result;
}

async function main(): Promise<void> {
  await step("pnpm build", () => run("pnpm", ["build"], { ...process.env, TURBO_TELEMETRY_DISABLED: "1" }));

  const smtp = new TestSmtpServer();
  await smtp.start();
  cleanups.push(() => Promise.race([smtp.stop(), sleep(5_000)]));

  const dataDir = `${defaultLocalStateDir}/test-prod-pg-${process.pid}`;
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const databaseUrl = await step("embedded PostgreSQL for the test", async () => {
    const pg = await startEmbeddedPostgres({ dataDir, persistent: false });
    // at most 10 s: after a Ctrl-C PostgreSQL got the SIGINT too, and stop() waits for an exit that already happened
    cleanups.push(() => Promise.race([pg.stop(), sleep(10_000)]));
    await ensureDatabase(pg.adminUrl, "kongress");
    return pg.urlFor("kongress");
  });
  await step("pnpm db:migrate", () =>
    run("pnpm", ["db:migrate"], { ...process.env, DATABASE_URL: databaseUrl }),
  );

  const server = await step("production server ready", async () => {
    const bundle = await startBundle({
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      HOST: "127.0.0.1",
      // one proxy in front (the appending one below); a bare `true` is refused in production (ADR 0090)
      TRUST_PROXY: "1",
      // the public address behind the proxy would be https; http here so that the cookies must be Secure
      // because this is production, not because of APP_URL (trpc/context.ts)
      APP_URL: "http://127.0.0.1",
      SMTP_URL: smtp.url,
      ...ownSecrets(),
    });
    cleanups.push(() => stopBundle(bundle));
    await waitReady(bundle);
    return bundle;
  });
  await step("/readyz answers ready", () => checkReady(server));
  await step("HSTS behind X-Forwarded-Proto: https", () => checkHsts(server));
  await step("web app served with its cache headers", () => checkWebApp(server));
  await step(
    `registration mail through SMTP within ${MAIL_WITHIN_MS / 1000} s, confirm, login with a Secure refresh cookie`,
    () => checkRegistrationAndLogin(server, smtp),
    (ms) => `mail after ${ms} ms`,
  );
  const proxyDir = `${defaultLocalStateDir}/test-prod-proxy-${process.pid}`;
  cleanups.push(() => rm(proxyDir, { recursive: true, force: true }));
  const proxy = await step(
    "an appending proxy in front (nginx's $proxy_add_x_forwarded_for)",
    async () => {
      const started = await startAppendingProxy(server, proxyDir);
      cleanups.push(() => started.stop());
      return started;
    },
    (started) => started.kind,
  );
  await step("spoofed X-Forwarded-For entries through the proxy: 10 × 401, then 429", () =>
    checkSpoofedForwardedFor(proxy, server),
  );
  await step(
    "SIGTERM: exit code 0 within 10 s, port free",
    () => checkSigterm(server),
    (ms) => `exited after ${ms} ms`,
  );

  // one after the other: on two busy cores, four bundles loading at once took longer than any of them alone
  for (const refusal of refusals(databaseUrl)) {
    await step(`refuses to start: ${refusal.name}`, () => checkRefused(refusal));
  }
}

/** Stops what this test started, newest first; whatever still runs after that is killed. */
async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => console.error(`clean-up failed: ${String(error)}`));
  }
  killChildren();
}

let ending = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // `on`, not `once`: a Ctrl-C may arrive twice (the terminal signals the whole group, a parent may relay
  // it), and the second must not end this process before the clean-up is done
  process.on(signal, () => {
    if (ending) {
      return;
    }
    ending = true;
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
  await cleanUp();
  console.log(`\ntest:prod passed in ${seconds(started)}`);
  process.exit(0);
} catch (error) {
  // after a Ctrl-C the steps fail as their processes end: the signal's clean-up reports and exits
  if (!ending) {
    console.error(`\n✗ test:prod failed after ${seconds(started)}`);
    console.error(error instanceof Failure ? error.message : error);
    if (error instanceof Failure && error.log) {
      console.error(`\n--- last lines of its output ---\n${error.log}\n---`);
    }
    await cleanUp();
    process.exit(1);
  }
}
