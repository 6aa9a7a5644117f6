import { DEMO_LOGINS, schema } from "@app/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { createCongress } from "../src/testing/builders";
import { type ApiProcess, login, newSecrets, startApi, type Timed, timedFetch } from "./lib/api-process";
import { type FaultDatabase, startFaultDatabase } from "./lib/database";
import { delivered, postIpn, signedIpn } from "./lib/ipn";
import { SlowSmtpServer } from "./lib/slow-smtp";
import { sleep, until } from "./lib/wait";

const { congressTicketOrders, mailOutbox, participations, users } = schema;

/** close-with-grace in server.ts */
const GRACE_MS = 10_000;
const LOGINS = 4;
const ORDER = "SHUTDOWN-1";

const secrets = newSecrets();
const smtp = new SlowSmtpServer(4000);
let database: FaultDatabase;
let api: ApiProcess | undefined;
/** ends the test's lock-holding transaction (also after a failure) */
let releaseLocks: (() => Promise<void>) | undefined;

beforeAll(async () => {
  database = await startFaultDatabase("shutdown", { seed: true });
  await smtp.start();
});
afterAll(async () => {
  await releaseLocks?.();
  await api?.stop();
  await smtp.stop();
  await database?.destroy();
});

/** API connections of the test database waiting for a lock */
async function waitingOnLocks(): Promise<number> {
  const result = await database.handle.pool.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'faults' AND wait_event_type = 'Lock'",
  );
  return (result.rows[0] as { n: number }).n;
}

/** How each outbox row ended: sent (received by SMTP) or still queued, with its pg-boss job states. */
async function outbox() {
  const rows = await database.handle.db
    .select({ id: mailOutbox.id, key: mailOutbox.idempotencyKey, status: mailOutbox.status })
    .from(mailOutbox)
    .orderBy(mailOutbox.id);
  const jobs = await database.handle.pool.query(
    "SELECT data->>'outboxId' AS id, state FROM pgboss.job WHERE name = 'mail-send'",
  );
  return rows.map((row) => ({
    ...row,
    messageId: `<${row.key.replace(/[^\w.-]/g, "-")}.${row.id}@kongress-plattform>`,
    jobStates: (jobs.rows as { id: string; state: string }[])
      .filter((job) => job.id === String(row.id))
      .map((job) => job.state),
  }));
}

describe("graceful shutdown on SIGTERM", () => {
  it("finishes in-flight requests and jobs, exits 0 within the grace period and loses no mail", async () => {
    onTestFailed(() => {
      console.log(`API output:\n${api?.output()}`);
    });
    const db = database.handle.db;
    const congress = await createCongress(db, {
      digistoreIdTicket: 830_001,
      digistoreIdTicketAndPackage: 830_002,
    });
    const [buyer] = await db.select().from(users).where(eq(users.email, DEMO_LOGINS.participant.email));
    if (!buyer) {
      throw new Error("demo participant missing");
    }
    api = await startApi({ databaseUrl: database.url, secrets, smtpUrl: smtp.url });
    const server = api;

    // requests held inside their transactions: logins wait to store their refresh token, the payment
    // notification for the lock of its order
    const blocker = await database.handle.pool.connect();
    releaseLocks = async () => {
      releaseLocks = undefined;
      await blocker.query("COMMIT").catch(() => {});
      blocker.release();
    };
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE refresh_tokens IN SHARE MODE");
    await blocker.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`ipn:${ORDER}`]);
    const inFlight: Promise<Timed>[] = [
      ...Array.from({ length: LOGINS }, () =>
        login(server, DEMO_LOGINS.participant.email, DEMO_LOGINS.participant.password),
      ),
      postIpn(
        server.url,
        signedIpn(
          {
            userId: buyer.id,
            email: buyer.email,
            digistoreHash: buyer.digistoreHash,
            cat: "tic",
            pid: congress.id,
            productId: congress.digistoreIdTicket,
            orderId: ORDER,
            transactionId: `TX-${ORDER}`,
          },
          "on_payment",
          secrets.ipnPassphrase,
        ),
      ),
    ];
    await until(async () => (await waitingOnLocks()) >= LOGINS + 1, 15_000, "requests waiting on the locks");

    // and a mail job in the middle of its delivery (the SMTP server takes 4 s to accept a message)
    const reset = await timedFetch(`${server.url}/api/auth/resetPassword`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: DEMO_LOGINS.participant.email }),
    });
    expect(reset.status, reset.body).toBe(200);
    await until(() => smtp.receiving > smtp.mails.length, 15_000, "a mail in delivery");
    const startedBeforeSignal = smtp.receiving;

    server.child.kill("SIGTERM");
    const signalledAt = Date.now();
    await sleep(1000);
    // still running: it waits for the requests in flight; new connections are no longer served
    expect(server.child.exitCode).toBeNull();
    const late = await timedFetch(`${server.url}/healthz`, {}, 3000);
    expect(late.status === 0 || late.status === 503, `late request answered ${late.status}`).toBe(true);

    await releaseLocks();

    const answers = await Promise.all(inFlight);
    for (const answer of answers.slice(0, LOGINS)) {
      expect(answer.status, answer.error ?? answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toHaveProperty("token");
    }
    const ipn = answers[LOGINS];
    expect(ipn && delivered(ipn), `IPN answered ${ipn?.status} ${ipn?.error ?? ipn?.body}`).toBe(true);

    const exit = await server.exited;
    const shutdownMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(GRACE_MS);

    // the order of the held notification is complete
    const tickets = await db
      .select()
      .from(congressTicketOrders)
      .where(eq(congressTicketOrders.externalId, ORDER));
    expect(tickets.map((t) => t.status)).toEqual(["paid"]);
    const [joined] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(participations)
      .where(eq(participations.userId, buyer.id));
    expect(joined?.n).toBeGreaterThanOrEqual(1);

    // the mails whose delivery had begun were finished before the exit
    expect(smtp.mails.length).toBeGreaterThanOrEqual(startedBeforeSignal);
    // every mail was either sent (and received once) or is still queued with a job waiting for it
    const ended = await outbox();
    const kinds = ended.map((row) => row.key.split(":")[0]);
    expect(kinds).toContain("password-reset");
    expect(kinds).toContain("order-paid");
    for (const row of ended) {
      expect(row.jobStates, `${row.key}: a job left active`).not.toContain("active");
      if (row.status === "sent") {
        expect(
          smtp.mails.filter((mail) => mail.messageId === row.messageId),
          row.key,
        ).toHaveLength(1);
      } else {
        expect(row.status, row.key).toBe("queued");
        expect(
          row.jobStates.some((state) => state === "created" || state === "retry"),
          `${row.key}: no job waiting (${row.jobStates.join(", ")})`,
        ).toBe(true);
      }
    }

    // and the queued ones go out after the next start, each exactly once (without the retry backoff of
    // production settings, 15-30 s: what counts here is that the jobs are there)
    await database.handle.pool.query(
      "UPDATE pgboss.job SET start_after = now() WHERE name = 'mail-send' AND state = 'retry'",
    );
    smtp.delayMs = 0;
    api = await startApi({ databaseUrl: database.url, secrets, smtpUrl: smtp.url });
    await until(
      async () => (await outbox()).every((row) => row.status === "sent"),
      30_000,
      "queued mails sent",
    );
    const sent = await outbox();
    expect(smtp.mails.map((mail) => mail.messageId).sort()).toEqual(sent.map((row) => row.messageId).sort());
  });
});
