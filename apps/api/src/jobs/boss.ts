import { type Db, inTurn, schema } from "@app/db";
import { and, eq, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import PgBoss from "pg-boss";
import type { Env } from "../env";
import { describeError } from "../lib/log-privacy";
import { deliverOutboxMail } from "../mail-delivery/deliver";
import type { DeferredMail, MailDispatcher } from "../mail-delivery/outbox";
import { queuePasswordResetMail } from "../services/auth/password";
import { queueSignInLinkMail } from "../services/auth/sign-in-link";
import { deliverCertificates } from "../services/certificates/delivery";
import { type Clock, systemClock } from "../services/deps";
import { fetchVideoDurations } from "../services/fortbildung/video-durations";
import { queueTodaysCongressDayMails } from "../services/mail/congress-day";
import { runRetention } from "../services/privacy/retention";

export const MAIL_SEND_QUEUE = "mail-send";
export const MAIL_SWEEP_QUEUE = "mail-sweep";
export const CONGRESS_DAY_QUEUE = "event-day";
export const RETENTION_QUEUE = "privacy-retention";
export const DEFERRED_MAIL_QUEUE = "deferred-mail";
export const VIDEO_DURATIONS_QUEUE = "video-durations";
export const CERTIFICATES_QUEUE = "certificate-delivery";
/** the daily privacy clean-up, at a quiet hour (Berlin time) */
export const RETENTION_CRON = "30 3 * * *";
/** outbox mails still queued after this long get a new job (lost dispatch, exhausted retries) */
const SWEEP_AFTER_SECONDS = 60;
/** mail jobs one worker takes per poll, sent one after another */
const MAIL_BATCH_SIZE = 20;
/** how long stop() waits for a mail in delivery */
const STOP_TIMEOUT_MS = 5000;

export interface JobsOptions {
  databaseUrl: string;
  db: Db;
  transport: Transporter;
  mailFrom: string;
  /** public address of the web app, for links in mails */
  appUrl: string;
  log: FastifyBaseLogger;
  /** shorter intervals for tests */
  fast?: boolean;
  /** the time the jobs' services read; only the test harness passes one (ADR 0099) */
  clock?: Clock;
  /** the video host's oEmbed endpoint: the lengths of Fortbildung videos (ADR 0105) */
  env: Env;
}

export interface Jobs extends MailDispatcher {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * The advisory lock under which instances create the queues (any number that nothing else takes): pg-boss'
 * `create_queue` makes a queue's partition table, and two instances starting together on a new queue
 * deadlock there (PostgreSQL 40P01, found by the fault suite's two instances); in turns, the second finds the
 * queue made.
 */
const QUEUE_SETUP_LOCK = 7_340_034;

/** pg-boss on our PostgreSQL: durable queues, retries with backoff, cron; every instance may work jobs. */
export async function startJobs(options: JobsOptions): Promise<Jobs> {
  const { db, log } = options;
  const clock = options.clock ?? systemClock;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    max: 4,
    ...(options.fast && { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 }),
  });
  boss.on("error", (error) => log.warn({ err: error }, "job queue error"));
  await boss.start();
  const createQueue = (name: string, queue: Parameters<PgBoss["createQueue"]>[1]) =>
    inTurn(db.$client, QUEUE_SETUP_LOCK, () => boss.createQueue(name, queue));

  await createQueue(MAIL_SEND_QUEUE, {
    name: MAIL_SEND_QUEUE,
    policy: "stately",
    retryLimit: 10,
    retryDelay: options.fast ? 1 : 15,
    retryBackoff: true,
  });
  await createQueue(MAIL_SWEEP_QUEUE, { name: MAIL_SWEEP_QUEUE, policy: "singleton" });

  // mails wait at most this long for a worker; the scheduled jobs (a minute's sweep, daily, hourly) need no
  // quicker start than `scheduledPolling`, and each poll is a query of every instance
  const pollingIntervalSeconds = options.fast ? 0.5 : 2;
  const scheduledPolling = { pollingIntervalSeconds: options.fast ? 0.5 : 30 };
  let stopping = false;
  // A worker fetches one batch per polling interval: with pg-boss' default of one job that drained a
  // backlog (after an SMTP outage, the event-day mails) at one mail per interval.
  await boss.work<{ outboxId: number }>(
    MAIL_SEND_QUEUE,
    { pollingIntervalSeconds, batchSize: MAIL_BATCH_SIZE },
    async (jobs) => {
      for (const [index, job] of jobs.entries()) {
        if (stopping) {
          // shutting down: the rest of the batch goes back to the queue instead of holding up the exit
          await boss.fail(
            MAIL_SEND_QUEUE,
            jobs.slice(index).map((rest) => rest.id),
          );
          return;
        }
        try {
          const result = await deliverOutboxMail(
            { db, clock },
            options.transport,
            options.mailFrom,
            job.data.outboxId,
            options.appUrl,
            options.env.CERTIFICATE_SECRET,
          );
          log.info({ outboxId: job.data.outboxId, result }, "mail delivery");
        } catch (error) {
          // the SMTP answer names the recipient: the log and the job's output get it masked
          log.warn({ err: error, outboxId: job.data.outboxId }, "mail delivery failed");
          // only this mail goes back for a retry; pg-boss completes the rest of the batch
          await boss.fail(MAIL_SEND_QUEUE, job.id, { message: describeError(error) });
        }
      }
    },
  );

  const dispatch = async (ids: Array<number | null>) => {
    for (const id of ids) {
      if (id !== null) {
        await boss.send(MAIL_SEND_QUEUE, { outboxId: id }, { singletonKey: String(id) });
      }
    }
  };

  // mail work after the answer (a reset request for an address that may or may not have an account)
  await createQueue(DEFERRED_MAIL_QUEUE, {
    name: DEFERRED_MAIL_QUEUE,
    retryLimit: 10,
    retryDelay: options.fast ? 1 : 15,
    retryBackoff: true,
  });
  await boss.work<DeferredMail>(DEFERRED_MAIL_QUEUE, { pollingIntervalSeconds }, async (jobs) => {
    for (const job of jobs) {
      const queue = job.data.kind === "sign-in-link" ? queueSignInLinkMail : queuePasswordResetMail;
      await dispatch([await queue(db, { appUrl: options.appUrl, now: clock.now() }, job.data.email)]);
    }
  });
  const defer = async (request: DeferredMail) => {
    await boss.send(DEFERRED_MAIL_QUEUE, request);
  };

  await boss.work(MAIL_SWEEP_QUEUE, scheduledPolling, async () => {
    const { mailOutbox } = schema;
    const stale = await db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, "queued"),
          lt(mailOutbox.createdAt, sql`now() - make_interval(secs => ${SWEEP_AFTER_SECONDS})`),
        ),
      )
      .limit(500);
    await dispatch(stale.map((row) => row.id));
  });
  await boss.schedule(MAIL_SWEEP_QUEUE, "* * * * *", {}, { tz: "Europe/Berlin" });

  // the 'day of event' mail at 0:00 Berlin; idempotent, so every instance may run it
  const congressDay = async () => {
    const ids = await queueTodaysCongressDayMails({ db, clock }, options.appUrl);
    log.info({ queued: ids.length }, "event-day mails queued");
    await dispatch(ids);
  };
  await createQueue(CONGRESS_DAY_QUEUE, { name: CONGRESS_DAY_QUEUE, policy: "singleton" });
  await boss.work(CONGRESS_DAY_QUEUE, scheduledPolling, congressDay);
  await boss.schedule(CONGRESS_DAY_QUEUE, "0 0 * * *", {}, { tz: "Europe/Berlin" });
  // a run missed while the server was down is caught up at start-up on the same day
  await congressDay().catch((error: unknown) => log.error({ err: error }, "event-day catch-up failed"));

  // unconfirmed accounts, spent tokens and unused pictures; only counts are logged, never who was deleted
  const retention = async () => {
    const counts = await runRetention(db);
    log.info(counts, "privacy retention done");
  };
  await createQueue(RETENTION_QUEUE, { name: RETENTION_QUEUE, policy: "singleton" });
  await boss.work(RETENTION_QUEUE, scheduledPolling, retention);
  await boss.schedule(RETENTION_QUEUE, RETENTION_CRON, {}, { tz: "Europe/Berlin" });
  // idempotent: a run missed while the server was down happens at start-up
  await retention().catch((error: unknown) => log.error({ err: error }, "privacy retention catch-up failed"));

  // the lengths of Fortbildung videos nobody opened yet, every ten minutes (ADR 0105); the first run
  // goes through the queue, so start-up never waits for the video host
  const durations = async () => {
    const asked = await fetchVideoDurations({ db, env: options.env, log, clock });
    if (asked > 0) {
      log.info({ asked }, "video durations fetched");
    }
  };
  await createQueue(VIDEO_DURATIONS_QUEUE, { name: VIDEO_DURATIONS_QUEUE, policy: "singleton" });
  await boss.work(VIDEO_DURATIONS_QUEUE, scheduledPolling, durations);
  await boss.schedule(VIDEO_DURATIONS_QUEUE, "*/10 * * * *", {}, { tz: "Europe/Berlin" });
  await boss.send(VIDEO_DURATIONS_QUEUE, {});

  // the certificates of events whose last day is over, issued and mailed (ADR 0118): hourly, and once
  // at start-up through the queue; idempotent, so every instance may run it
  const certificates = async () => {
    const { issued, queued } = await deliverCertificates({ db, env: options.env, clock });
    if (issued > 0 || queued.length > 0) {
      log.info({ issued, queued: queued.length }, "certificates issued and mailed");
    }
    await dispatch(queued);
  };
  await createQueue(CERTIFICATES_QUEUE, { name: CERTIFICATES_QUEUE, policy: "singleton" });
  await boss.work(CERTIFICATES_QUEUE, scheduledPolling, certificates);
  await boss.schedule(CERTIFICATES_QUEUE, "7 * * * *", {}, { tz: "Europe/Berlin" });
  await boss.send(CERTIFICATES_QUEUE, {});

  return {
    boss,
    dispatch,
    defer,
    stop: async () => {
      stopping = true;
      // well inside close-with-grace's 10 s (server.ts), after the requests in flight: a mail still in
      // delivery then is failed back to the queue (its stable Message-ID covers a rare duplicate)
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
    },
  };
}
