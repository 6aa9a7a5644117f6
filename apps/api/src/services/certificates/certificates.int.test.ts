import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "@app/db";
import { hashPassword } from "@app/db/password";
import { berlinDate, CERTIFICATE_CODE_PATTERN, MSG_CERTIFICATE } from "@app/shared";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCongress,
  createContent,
  createPackage,
  createUser,
  participate,
  relDay,
  ticketOrder,
  trpcMutation,
  trpcQuery,
  videoUrl,
} from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";
import { pdfQrCodes, pdfText } from "../../testing/pdf";
import { deleteOrphanedImages } from "../admin/images";
import { previewKey } from "../visitor/video-preview";
import { certificateCode } from "./code";
import { deliverCertificates } from "./delivery";
import { myCertificateFile, myCertificates } from "./files";
import { issueEventCertificates, issueRecordingCertificate } from "./issue";
import { saveIssuer } from "./issuer";

/** ADR 0116, ADR 0117, ADR 0118: issuing, the participant's certificates, verification, revoking, delivery. */

let t: TestApp;
let adminId: number;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
  const admin = await createUser(t.db.db, { roles: ["ROLE_USER", "ROLE_ADMIN"] });
  adminId = admin.id;
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
  await saveIssuer(
    t.db.db,
    {
      name: "Institut für Fortbildung",
      address: "Musterstraße 1\n10115 Berlin",
      signatory: "Dr. Maria Muster",
    },
    adminId,
  );
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.db.db;
const deps = () => ({ db: db(), env: t.env, clock: t.clock });
let ipCounter = 0;
/** each test its own client address: the verification's per-address limit stays out of the way */
const nextIp = () => `10.34.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function visitor(values: Partial<typeof schema.users.$inferInsert> = {}) {
  const user = await createUser(db(), { emailConfirmedAt: new Date(), ...values });
  return { user, token: await t.tokenFor(user.id) };
}

/**
 * A Fortbildung event of two days that ended yesterday, one 10-minute video a day, 4 points a day: `reached`
 * watched 9 minutes of the first day (80%: 8 needed), `missed` 7.
 */
async function endedEvent() {
  const first = relDay(-2);
  const last = relDay(-1);
  const congress = await createCongress(db(), {
    fortbildung: true,
    vnr: "2760602026112300017",
    fortbildungCategory: "B",
    pointsPerDay: 4,
    firstDay: first,
    lastDay: last,
  });
  const url = videoUrl();
  await db()
    .insert(schema.videoPreviews)
    .values({ key: previewKey(url), url, durationSeconds: 600 });
  await createContent(db(), congress.id, [{ urls: [url] }]);
  const reached = await visitor({ firstname: "Łukasz", lastname: "Żółć", efn: "123456789012344" });
  const missed = await visitor();
  for (const [who, seconds] of [
    [reached, 540],
    [missed, 420],
  ] as const) {
    await participate(db(), who.user.id, congress.id);
    await db()
      .insert(schema.watchTime)
      .values({
        userId: who.user.id,
        congressId: congress.id,
        day: first,
        videoKey: previewKey(url),
        source: "player",
        played: `{[0,${seconds})}`,
        seconds,
      });
  }
  return { congress, first, last, reached, missed };
}

const certificatesOf = (userId: number) =>
  db().select().from(schema.certificates).where(eq(schema.certificates.userId, userId));

const codeFromUrl = (url: string) => url.split("/bescheinigung/")[1] ?? "";

describe("issuing an event's certificates", () => {
  it("waits for the last day to end, then issues to those who reached a day, once, with the facts frozen", async () => {
    const { congress, first, last, reached, missed } = await endedEvent();
    t.clock.set(new Date(`${last}T23:30:00+01:00`));
    try {
      expect(await issueEventCertificates(deps(), { congressId: congress.id })).toEqual([]);
    } finally {
      t.clock.reset();
    }
    const [a, b] = await Promise.all([
      issueEventCertificates(deps(), { congressId: congress.id }),
      issueEventCertificates(deps(), { congressId: congress.id }),
    ]);
    expect([...(a ?? []), ...(b ?? [])]).toHaveLength(1);
    expect(await issueEventCertificates(deps(), { congressId: congress.id })).toEqual([]);
    expect(await certificatesOf(missed.user.id)).toEqual([]);
    const [certificate] = await certificatesOf(reached.user.id);
    expect(certificate?.number).toMatch(new RegExp(`^${berlinDate().slice(0, 4)}-\\d{6}$`));
    expect(certificate?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(certificate?.facts).toMatchObject({
      kind: "event",
      issuedOn: berlinDate(),
      participant: { name: "Łukasz Żółć", efn: "123456789012344" },
      issuer: { name: "Institut für Fortbildung", signatory: "Dr. Maria Muster" },
      congress: { title: congress.title, firstDay: first, lastDay: last },
      vnr: "2760602026112300017",
      category: "B",
      days: [{ day: first, minutes: 9, contentMinutes: 10, points: 4 }],
      points: 4,
      recording: null,
    });
    // the code is never stored: nothing in the row is the code itself
    const code = certificateCode(t.env.CERTIFICATE_SECRET, certificate?.id ?? 0);
    expect(code).toMatch(CERTIFICATE_CODE_PATTERN);
    expect(JSON.stringify(certificate)).not.toContain(code);

    // a later change of the name leaves the issued certificate as it was
    await db().update(schema.users).set({ firstname: "Lukas" }).where(eq(schema.users.id, reached.user.id));
    const [again] = await certificatesOf(reached.user.id);
    expect(again?.facts).toMatchObject({ participant: { name: "Łukasz Żółć" } });
  });

  it("issues nothing before the admin has named the issuer", async () => {
    const { congress } = await endedEvent();
    await db().update(schema.certificateIssuer).set({ name: "" });
    try {
      expect(await issueEventCertificates(deps(), { congressId: congress.id })).toEqual([]);
    } finally {
      await db().update(schema.certificateIssuer).set({ name: "Institut für Fortbildung" });
    }
  });
});

describe("Meine Bescheinigungen", () => {
  it("lists the participant's own certificate (issued on the first look) with its PDF and verification address", async () => {
    const { congress, reached, missed } = await endedEvent();
    const mine = await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token });
    expect(mine.status).toBe(200);
    expect(mine.data).toHaveLength(1);
    const [entry] = mine.data;
    expect(entry).toMatchObject({ kind: "event", congressTitle: congress.title, points: 4, revokedOn: null });
    expect(entry.verifyUrl).toMatch(/^http:\/\/app\.test\/bescheinigung\/[A-Za-z0-9_-]{24}$/);

    const pdf = await trpcQuery(t, "certificate.getPdf", { id: entry.id }, { token: reached.token });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(pdf.data.base64, "base64");
    expect(pdf.data.fileName).toBe(`teilnahmebescheinigung-${entry.number}.pdf`);
    expect(await pdfQrCodes(bytes)).toEqual([entry.verifyUrl]);
    const text = await pdfText(bytes);
    expect(text).toContain("Łukasz Żółć");
    expect(text).toContain(entry.number);

    // another participant: nothing of theirs, and this one's PDF is "not found"
    expect((await trpcQuery(t, "certificate.listMine", undefined, { token: missed.token })).data).toEqual([]);
    const foreign = await trpcQuery(t, "certificate.getPdf", { id: entry.id }, { token: missed.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).not.toContain("Łukasz");
    expect((await trpcQuery(t, "certificate.getPdf", { id: entry.id })).status).toBe(401);
  });
});

describe("verification", () => {
  it("confirms a genuine certificate with exactly its facts, says unknown for others, and revoked after a revoke", async () => {
    const { reached } = await endedEvent();
    const [entry] = (await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token })).data;
    const code = codeFromUrl(entry.verifyUrl);
    const ip = nextIp();
    const check = (value: string) => trpcQuery(t, "certificate.verify", { code: value }, { ip });

    const genuine = await check(code);
    expect(genuine.status).toBe(200);
    expect(genuine.data.status).toBe("valid");
    // what a verifier compares with the document; the EFN (a life-long identifier) by its last four
    // digits only, since anyone holding the code or a photo of the QR code reads this answer
    expect(genuine.data.certificate).toMatchObject({
      number: entry.number,
      participant: { name: "Łukasz Żółć", efn: "XXXXXXXXXXX2344" },
      congress: { title: expect.any(String), firstDay: expect.any(String), lastDay: expect.any(String) },
      days: [expect.objectContaining({ points: 4 })],
      points: 4,
      category: "B",
      vnr: "2760602026112300017",
      issuer: { name: "Institut für Fortbildung", address: "Musterstraße 1\n10115 Berlin" },
    });
    expect(genuine.body).not.toContain("123456789012344");
    expect(genuine.body).not.toContain("12345678901");
    // nothing beyond what the PDF shows: no ids, no address, no picture names
    expect(genuine.body).not.toContain(reached.user.email);
    expect(Object.keys(genuine.data.certificate).sort()).toEqual(
      [
        "category",
        "congress",
        "days",
        "issuedOn",
        "issuer",
        "kind",
        "number",
        "participant",
        "points",
        "recording",
        "vnr",
      ].sort(),
    );
    expect(Object.keys(genuine.data.certificate.issuer).sort()).toEqual(["address", "name", "signatory"]);

    for (const other of [
      `${code.slice(0, 23)}${code.endsWith("A") ? "B" : "A"}`,
      "x".repeat(24),
      "abc",
      "",
      "../../admin",
      entry.number,
      String(entry.id),
      "ä".repeat(200),
    ]) {
      const answer = await check(other);
      expect(answer.status, other).toBe(200);
      expect(answer.data, other).toEqual({ status: "unknown" });
    }

    const missingReason = await trpcMutation(
      t,
      "admin.certificates.revoke",
      { id: entry.id, reason: " " },
      { token: adminToken },
    );
    expect(missingReason.status).toBe(400);
    const revoke = await trpcMutation(
      t,
      "admin.certificates.revoke",
      { id: entry.id, reason: "Teilnahme nachträglich aberkannt" },
      { token: adminToken },
    );
    expect(revoke.status).toBe(200);
    const revoked = await check(code);
    expect(revoked.data).toMatchObject({ status: "revoked", revokedOn: berlinDate(), replaced: false });
    expect(revoked.data.certificate.participant).toEqual({ name: "Łukasz Żółć", efn: "XXXXXXXXXXX2344" });
    expect(revoked.body).not.toContain("123456789012344");
    expect(revoked.body).not.toContain("aberkannt");
    const [audit] = await db()
      .select()
      .from(schema.auditLog)
      .where(
        and(eq(schema.auditLog.action, "certificate.revoke"), eq(schema.auditLog.entityId, String(entry.id))),
      );
    expect(audit?.changes).toMatchObject({ reason: "Teilnahme nachträglich aberkannt" });
    expect(audit?.actorId).toBe(adminId);

    // the participant sees it revoked and can no longer download it; revoking twice is refused
    const mine = await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token });
    expect(mine.data[0]).toMatchObject({ revokedOn: berlinDate(), verifyUrl: null });
    expect(
      (await trpcQuery(t, "certificate.getPdf", { id: entry.id }, { token: reached.token })).status,
    ).toBe(403);
    const twice = await trpcMutation(
      t,
      "admin.certificates.revoke",
      { id: entry.id, reason: "noch einmal" },
      { token: adminToken },
    );
    expect(twice.status).toBe(409);
  });

  it("is limited per client address like other public lookups", async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) {
      expect((await trpcQuery(t, "certificate.verify", { code: "x".repeat(24) }, { ip })).status).toBe(200);
    }
    const refused = await trpcQuery(t, "certificate.verify", { code: "x".repeat(24) }, { ip });
    expect(refused.status).toBe(429);
    expect(
      (await trpcQuery(t, "certificate.verify", { code: "x".repeat(24) }, { ip: nextIp() })).status,
    ).toBe(200);
  });

  it("re-issues after a name correction: the old number revoked and replaced, the new one verifies with the new name", async () => {
    const { reached } = await endedEvent();
    const [old] = (await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token })).data;
    await db()
      .update(schema.users)
      .set({ firstname: "Łukasz Jan" })
      .where(eq(schema.users.id, reached.user.id));
    const reissued = await trpcMutation(
      t,
      "admin.certificates.reissue",
      { id: old.id },
      { token: adminToken },
    );
    expect(reissued.status).toBe(200);
    expect(reissued.data.number).not.toBe(old.number);

    const ip = nextIp();
    const oldCheck = await trpcQuery(t, "certificate.verify", { code: codeFromUrl(old.verifyUrl) }, { ip });
    expect(oldCheck.data).toMatchObject({ status: "revoked", replaced: true });
    const mine = (await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token })).data;
    expect(mine).toHaveLength(1);
    expect(mine[0].number).toBe(reissued.data.number);
    const fresh = await trpcQuery(t, "certificate.verify", { code: codeFromUrl(mine[0].verifyUrl) }, { ip });
    expect(fresh.data.status).toBe("valid");
    expect(fresh.data.certificate.participant.name).toBe("Łukasz Jan Żółć");
    const [row] = await db().select().from(schema.certificates).where(eq(schema.certificates.id, old.id));
    expect(row?.replacedBy).toBe(reissued.data.id);
    // a replaced certificate is not re-issued again (its successor is)
    expect(
      (await trpcMutation(t, "admin.certificates.reissue", { id: old.id }, { token: adminToken })).status,
    ).toBe(404);
  });
});

describe("a recording's certificate", () => {
  it("is issued once for a passed learning check, with the check's category and points and the day of passing", async () => {
    const { congress } = await endedEvent();
    const pkg = await createPackage(db(), congress.id, { name: "Aufzeichnung Körper & Seele" });
    const [check] = await db()
      .insert(schema.learningChecks)
      .values({ packageId: pkg.id, category: "I", points: 3 })
      .returning();
    const { user } = await visitor({ firstname: "Γιώργος", lastname: "Παπαδόπουλος" });
    const checkId = check?.id ?? 0;
    await db().insert(schema.learningCheckAttempts).values({
      checkId,
      userId: user.id,
      shown: [],
      submittedAt: new Date(),
      passed: false,
      scorePercent: 50,
    });
    await expect(
      issueRecordingCertificate(deps(), { userId: user.id, learningCheckId: checkId }),
    ).rejects.toThrow(/no passed attempt/);
    const passedAt = new Date(`${relDay(-1)}T21:30:00Z`);
    await db().insert(schema.learningCheckAttempts).values({
      checkId,
      userId: user.id,
      shown: [],
      submittedAt: passedAt,
      passed: true,
      scorePercent: 80,
    });
    const first = await issueRecordingCertificate(deps(), { userId: user.id, learningCheckId: checkId });
    expect(first?.issued).toBe(true);
    const second = await issueRecordingCertificate(deps(), { userId: user.id, learningCheckId: checkId });
    expect(second).toEqual({ ...first, issued: false });
    const [row] = await certificatesOf(user.id);
    expect(row).toMatchObject({ kind: "recording", learningCheckId: checkId, congressId: congress.id });
    expect(row?.facts).toMatchObject({
      kind: "recording",
      participant: { name: "Γιώργος Παπαδόπουλος", efn: null },
      category: "I",
      points: 3,
      days: [],
      recording: { packageName: "Aufzeichnung Körper & Seele", day: null, passedOn: berlinDate(passedAt) },
    });
  });

  it("waits for the issuer's name when passed before it was set, and comes with the participant's next look", async () => {
    const { congress } = await endedEvent();
    const pkg = await createPackage(db(), congress.id);
    const [check] = await db().insert(schema.learningChecks).values({ packageId: pkg.id }).returning();
    const checkId = check?.id ?? 0;
    const { user, token } = await visitor();
    await db().insert(schema.learningCheckAttempts).values({
      checkId,
      userId: user.id,
      shown: [],
      submittedAt: new Date(),
      passed: true,
      scorePercent: 100,
    });
    await db().update(schema.certificateIssuer).set({ name: "" });
    try {
      expect(
        await issueRecordingCertificate(deps(), { userId: user.id, learningCheckId: checkId }),
      ).toBeNull();
      expect(await certificatesOf(user.id)).toEqual([]);
    } finally {
      await db().update(schema.certificateIssuer).set({ name: "Institut für Fortbildung" });
    }
    const mine = await trpcQuery(t, "certificate.listMine", undefined, { token });
    expect(mine.data).toHaveLength(1);
    expect(await certificatesOf(user.id)).toMatchObject([{ kind: "recording", learningCheckId: checkId }]);
  });
});

describe("delivery", () => {
  it("mails each certificate once with its PDF attached, however often the job runs", async () => {
    const { reached } = await endedEvent();
    const runs = await Promise.all([deliverCertificates(deps()), deliverCertificates(deps())]);
    await deliverCertificates(deps());
    const [certificate] = await certificatesOf(reached.user.id);
    expect(certificate?.mailedAt).not.toBeNull();
    const outbox = await db()
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.idempotencyKey, `certificate:${certificate?.id}`));
    expect(outbox).toHaveLength(1);
    expect(runs.flatMap((r) => r.queued).filter((id) => id === outbox[0]?.id).length).toBeLessThanOrEqual(1);
    await t.jobs?.dispatch(outbox.map((row) => row.id));
    await t.smtp.waitFor((m) => m.to.includes(reached.user.email));
    const mails = t.smtp.mails.filter((m) => m.to.includes(reached.user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^Ihre Teilnahmebescheinigung: /);
    const attachment = mails[0]?.attachments.find((a) => a.contentType === "application/pdf");
    expect(attachment?.filename).toBe(`teilnahmebescheinigung-${certificate?.number}.pdf`);
    const code = certificateCode(t.env.CERTIFICATE_SECRET, certificate?.id ?? 0);
    expect(await pdfQrCodes(attachment?.data ?? Buffer.alloc(0))).toEqual([
      `http://app.test/bescheinigung/${code}`,
    ]);
  });
});

describe("the issuer's pictures", () => {
  it("stay while the issuer or an issued certificate names them, though nothing else refers to them", async () => {
    const picture = async () => {
      const fileName = `${randomUUID().replaceAll("-", "")}.webp`;
      await db()
        .insert(schema.images)
        .values({ fileName, mimeType: "image/webp", byteSize: 1, sha256: fileName, data: Buffer.from("x") });
      await db()
        .update(schema.images)
        .set({ createdAt: new Date(Date.now() - 3 * 24 * 3600_000) })
        .where(eq(schema.images.fileName, fileName));
      return fileName;
    };
    const [oldLogo, logo, signature, orphan] = [
      await picture(),
      await picture(),
      await picture(),
      await picture(),
    ];
    const { congress, reached } = await endedEvent();
    await saveIssuer(db(), { name: "Institut für Fortbildung", logo: oldLogo }, adminId);
    await issueEventCertificates(deps(), { congressId: congress.id });
    await saveIssuer(
      db(),
      {
        name: "Institut für Fortbildung",
        address: "Musterstraße 1\n10115 Berlin",
        signatory: "Dr. Maria Muster",
        logo,
        signature,
      },
      adminId,
    );
    expect((await certificatesOf(reached.user.id))[0]?.facts).toMatchObject({ issuer: { logo: oldLogo } });
    await deleteOrphanedImages(db());
    const left = await db()
      .select({ fileName: schema.images.fileName })
      .from(schema.images)
      .where(inArray(schema.images.fileName, [oldLogo, logo, signature, orphan]));
    expect(left.map((r) => r.fileName).sort()).toEqual([oldLogo, logo, signature].sort());
    await saveIssuer(
      db(),
      {
        name: "Institut für Fortbildung",
        address: "Musterstraße 1\n10115 Berlin",
        signatory: "Dr. Maria Muster",
      },
      adminId,
    );
  });
});

describe("privacy", () => {
  it("puts the certificates in the data export and deletes them with the account (orders kept), so the code is unknown", async () => {
    const password = "sicheres-Passwort-1";
    const { congress, reached } = await endedEvent();
    await db()
      .update(schema.users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(schema.users.id, reached.user.id));
    await ticketOrder(db(), reached.user.id, congress.id, "paid");
    const [entry] = (await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token })).data;
    const exported = await trpcQuery(t, "account.export", undefined, { token: reached.token });
    expect(exported.data.certificates).toEqual([
      expect.objectContaining({
        number: entry.number,
        kind: "event",
        facts: expect.objectContaining({ points: 4 }),
      }),
    ]);
    const deleted = await trpcMutation(
      t,
      "account.delete",
      { password },
      { token: reached.token, ip: nextIp() },
    );
    expect(deleted.status).toBe(200);
    expect(await certificatesOf(reached.user.id)).toEqual([]);
    const check = await trpcQuery(
      t,
      "certificate.verify",
      { code: codeFromUrl(entry.verifyUrl) },
      { ip: nextIp() },
    );
    expect(check.data).toEqual({ status: "unknown" });
  });
});

describe("the verification page", () => {
  it("is served with noindex and without a Referer; other pages are not marked", async () => {
    const webDist = await mkdtemp(join(tmpdir(), "web-dist-"));
    await writeFile(join(webDist, "index.html"), '<!doctype html><html lang="de"><body>APP</body></html>');
    const web = await createTestApp({ webDistDir: webDist, sameDatabaseAs: t });
    try {
      const page = await web.app.inject(`/bescheinigung/${"x".repeat(24)}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("APP");
      expect(page.headers["x-robots-tag"]).toBe("noindex, nofollow");
      expect(page.headers["referrer-policy"]).toBe("no-referrer");
      const other = await web.app.inject("/profile");
      expect(other.headers["x-robots-tag"]).toBeUndefined();
    } finally {
      await web.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });
});

describe("a changed CERTIFICATE_SECRET", () => {
  it("never hands out a PDF whose QR code would not verify; the old code still verifies", async () => {
    const { reached } = await endedEvent();
    const [entry] = (await trpcQuery(t, "certificate.listMine", undefined, { token: reached.token })).data;
    const changed = { ...t.env, CERTIFICATE_SECRET: "ein-anderer-schluessel-mit-mindestens-32-zeichen" };
    await expect(
      myCertificateFile({ db: db(), env: changed }, { userId: reached.user.id, id: entry.id }),
    ).rejects.toMatchObject({ userMessage: MSG_CERTIFICATE.codeSecretChanged });
    const [listed] = await myCertificates({ db: db(), env: changed, clock: t.clock }, reached.user.id);
    expect(listed?.verifyUrl).toBeNull();
    const check = await trpcQuery(
      t,
      "certificate.verify",
      { code: codeFromUrl(entry.verifyUrl) },
      { ip: nextIp() },
    );
    expect(check.data.status).toBe("valid");
  });
});
