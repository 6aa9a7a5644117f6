import { schema } from "@app/db";
import { eq, inArray } from "drizzle-orm";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { MAIL_SEND_QUEUE } from "../src/jobs/boss";
import { certificateCode } from "../src/services/certificates/code";
import { deliverCertificates } from "../src/services/certificates/delivery";
import { systemClock } from "../src/services/deps";
import { previewKey } from "../src/services/visitor/video-preview";
import {
  createCongress,
  createContent,
  createUser,
  participate,
  relDay,
  videoUrl,
} from "../src/testing/builders";
import { pdfGlyphs, pdfQrCodes } from "../src/testing/pdf";
import { TestSmtpServer } from "../src/testing/smtp";
import { type ApiProcess, newSecrets, startApi } from "./lib/api-process";
import { type FaultDatabase, startFaultDatabase } from "./lib/database";
import { sleep, until } from "./lib/wait";

/**
 * ADR 0118: the certificate delivery job on two production instances at once, a third run beside
 * them and a restart of one instance: every participant who reached the rule gets exactly one mail, with
 * the PDF made at send time (in the bundle: the fonts are found from dist/), whose QR code verifies.
 */

const PARTICIPANTS = 12;
const APP_URL = "https://kongress.example";
const secrets = newSecrets();
let database: FaultDatabase;
const smtp = new TestSmtpServer();
const apis: ApiProcess[] = [];

beforeAll(async () => {
  database = await startFaultDatabase("certificates");
  await smtp.start();
});
afterAll(async () => {
  await Promise.all(apis.map((api) => api.stop()));
  await smtp.stop();
  await database?.destroy();
});

/** A Fortbildung event that ended yesterday; every participant watched 9 of its 10 minutes (80%: reached). */
async function endedEvent() {
  const db = database.handle.db;
  await db.insert(schema.certificateIssuer).values({ id: 1, name: "Institut für Ausfallsicherheit" });
  const day = relDay(-1);
  const congress = await createCongress(db, { fortbildung: true, vnr: "27606", firstDay: day, lastDay: day });
  const url = videoUrl();
  await db.insert(schema.videoPreviews).values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db, congress.id, [{ urls: [url] }]);
  const emails: string[] = [];
  for (let i = 0; i < PARTICIPANTS; i++) {
    // every other name in Chinese: the bundle finds the CJK fallback fonts and HarfBuzz's wasm (fonts.ts)
    const user = await createUser(db, {
      email: `bescheinigung.${i}@example.com`,
      ...(i % 2 ? { firstname: "小龍", lastname: "李" } : { firstname: "Łucja" }),
    });
    await participate(db, user.id, congress.id);
    await db.insert(schema.watchTime).values({
      userId: user.id,
      congressId: congress.id,
      day,
      videoKey: previewKey(url),
      source: "player",
      played: "{[0,540)}",
      seconds: 540,
    });
    emails.push(user.email);
  }
  return { congress, emails };
}

const start = () =>
  startApi({
    databaseUrl: database.url,
    secrets,
    smtpUrl: smtp.url,
    env: { APP_URL },
  });

describe("certificate delivery", () => {
  it("mails each certificate once across two instances, a third run and a restart", async () => {
    onTestFailed(() => {
      for (const api of apis) {
        console.info(api.output());
      }
    });
    const db = database.handle.db;
    const { congress, emails } = await endedEvent();
    // a third process runs the job twice at the same moment as the two instances start (each runs it once)
    const env = { CERTIFICATE_SECRET: secrets.certificateSecret ?? "", APP_URL };
    const [first, second, ...started] = await Promise.all([
      deliverCertificates({ db, env, clock: systemClock }),
      deliverCertificates({ db, env, clock: systemClock }),
      start(),
      start(),
    ]);
    apis.push(...(started as ApiProcess[]));
    // what this process queued it hands to the queue as an instance would
    const boss = new PgBoss({ connectionString: database.url, max: 2 });
    boss.on("error", () => {});
    await boss.start();
    for (const id of [...(first?.queued ?? []), ...(second?.queued ?? [])]) {
      await boss.send(MAIL_SEND_QUEUE, { outboxId: id }, { singletonKey: String(id) });
    }
    await boss.stop({ graceful: false });

    const certificates = () =>
      db.select().from(schema.certificates).where(eq(schema.certificates.congressId, congress.id));
    await until(
      async () => (await certificates()).length === PARTICIPANTS,
      30_000,
      "all certificates issued",
    );
    // one instance restarts while the mails go out; its start-up run finds everything mailed
    const restarted = apis.shift();
    await restarted?.stop();
    apis.push(await start());

    await until(
      () => smtp.mails.length >= PARTICIPANTS,
      60_000,
      () => `${smtp.mails.length} mails`,
    );
    await sleep(3000);
    expect(smtp.mails.map((m) => m.to).sort()).toEqual([...emails].sort());

    const rows = await certificates();
    expect(rows.every((row) => row.mailedAt !== null)).toBe(true);
    const outbox = await db
      .select()
      .from(schema.mailOutbox)
      .where(
        inArray(
          schema.mailOutbox.idempotencyKey,
          rows.map((row) => `certificate:${row.id}`),
        ),
      );
    expect(outbox).toHaveLength(PARTICIPANTS);
    expect(outbox.every((row) => row.status === "sent")).toBe(true);

    const owners = await db
      .select({ id: schema.users.id, email: schema.users.email })
      .from(schema.users)
      .where(
        inArray(
          schema.users.id,
          rows.map((row) => row.userId),
        ),
      );
    const expected = new Map(
      rows.map((row) => [
        owners.find((u) => u.id === row.userId)?.email,
        `${APP_URL}/bescheinigung/${certificateCode(env.CERTIFICATE_SECRET, row.id)}`,
      ]),
    );
    for (const mail of smtp.mails) {
      const pdf = mail.attachments.find((a) => a.contentType === "application/pdf");
      expect(pdf, mail.to).toBeDefined();
      expect(await pdfQrCodes(pdf?.data ?? Buffer.alloc(0)), mail.to).toEqual([expected.get(mail.to)]);
      const { glyphs } = await pdfGlyphs(pdf?.data ?? Buffer.alloc(0));
      expect(
        glyphs.filter((g) => g.code === 0).map((g) => g.unicode),
        `${mail.to}: .notdef`,
      ).toEqual([]);
    }
  });
});
