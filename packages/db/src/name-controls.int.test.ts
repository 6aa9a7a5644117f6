import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUDIT_ACTION_LABELS, describeAuditChanges } from "@app/shared";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dropDatabase, ensureDatabase } from "./admin";
import { createDb, type DbHandle } from "./client";
import { defaultMigrationsFolder, runMigrations } from "./migrate";
import type {} from "./testing/provided";

/**
 * The migration that takes control and format characters out of stored names (ADR 0128):
 * a database migrated up to the migration before it gets dirty rows, then the migration runs.
 */

const TAG = /_clean_name_controls$/;

interface Journal {
  entries: { tag: string }[];
}

/** The committed migrations without the one under test (drizzle applies what the journal lists). */
function migrationsBefore(): string {
  const folder = mkdtempSync(join(tmpdir(), "migrations-"));
  cpSync(defaultMigrationsFolder, folder, { recursive: true });
  const path = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(path, "utf8")) as Journal;
  journal.entries = journal.entries.filter((e) => !TAG.test(e.tag));
  writeFileSync(path, JSON.stringify(journal));
  return folder;
}

/** every control (Cc) and format (Cf) character PostgreSQL can store in text (all but U+0000) */
const CONTROLS = Array.from({ length: 0x10ffff }, (_, i) => i + 1)
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => String.fromCodePoint(c))
  .filter((c) => /[\p{Cc}\p{Cf}]/u.test(c));

const adminUrl = () => inject("pgAdminUrl");
const name = `migration_${randomBytes(6).toString("hex")}`;
let handle: DbHandle;
let before: string;
const notices: string[] = [];

beforeAll(async () => {
  await ensureDatabase(adminUrl(), name);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  handle = createDb(url.toString(), { max: 1 });
  before = migrationsBefore();
  await runMigrations(handle.pool, before);
});
afterAll(async () => {
  await handle?.close();
  await dropDatabase(adminUrl(), name);
  rmSync(before, { recursive: true, force: true });
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await handle.pool.query(text, values)).rows as T[];
}

describe("the migration that cleans names", () => {
  it("removes control and format characters from users' names and certificates, logging each change", async () => {
    const insertUser = async (email: string, firstname: string, lastname: string) =>
      (
        await query<{ id: number }>(
          "INSERT INTO users (email, firstname, lastname) VALUES ($1, $2, $3) RETURNING id",
          [email, firstname, lastname],
        )
      )[0]?.id as number;
    const bidi = await insertUser("bidi@example.com", "Er\u202Eika\u0007", "\u2066Muster\u2069");
    const tab = await insertUser("tab@example.com", "Anna\tMaria", "Muster");
    const every = await insertUser("every@example.com", `A${CONTROLS.join("")}B`, "Muster");
    const clean = await insertUser("clean@example.com", "Nguyễn Thị", "小龍 李");
    const [congress] = await query<{ id: number }>(
      "INSERT INTO congresses (title, first_day) VALUES ('Kongress', '2026-11-23') RETURNING id",
    );
    const facts = (participant: string) =>
      JSON.stringify({ participant: { name: participant, efn: null }, points: 8 });
    const certificate = async (userId: number, number: string, participant: string) =>
      (
        await query<{ id: number }>(
          `INSERT INTO certificates (number, code_hash, user_id, congress_id, kind, facts)
           VALUES ($1, $2, $3, $4, 'event', $5) RETURNING id`,
          [number, `hash-${number}`, userId, congress?.id, facts(participant)],
        )
      )[0]?.id as number;
    const dirtyCertificate = await certificate(bidi, "2026-000001", "Er\u202Eika\u0007 \u2066Muster\u2069");
    const cleanCertificate = await certificate(clean, "2026-000002", "Nguyễn Thị 小龍 李");

    await runMigrations(handle.pool, undefined, (message) => notices.push(message));

    const names = await query<{ id: number; firstname: string; lastname: string }>(
      "SELECT id, firstname, lastname FROM users ORDER BY id",
    );
    expect(names).toEqual([
      { id: bidi, firstname: "Erika", lastname: "Muster" },
      { id: tab, firstname: "Anna Maria", lastname: "Muster" },
      // tabs, line breaks and U+0085 became one space
      { id: every, firstname: "A B", lastname: "Muster" },
      { id: clean, firstname: "Nguyễn Thị", lastname: "小龍 李" },
    ]);
    const certificates = await query<{
      id: number;
      facts: { participant: { name: string }; points: number };
    }>("SELECT id, facts FROM certificates ORDER BY id");
    expect(certificates).toEqual([
      { id: dirtyCertificate, facts: { participant: { name: "Erika Muster", efn: null }, points: 8 } },
      { id: cleanCertificate, facts: { participant: { name: "Nguyễn Thị 小龍 李", efn: null }, points: 8 } },
    ]);

    const log = await query<{
      actor_kind: string;
      action: string;
      entity: string;
      entity_id: string;
      changes: unknown;
    }>("SELECT actor_kind, action, entity, entity_id, changes FROM audit_log ORDER BY id");
    expect(log).toEqual([
      {
        actor_kind: "system",
        action: "user.name-cleaned",
        entity: "user",
        entity_id: String(bidi),
        changes: {
          firstname: ["***", "***"],
          lastname: ["***", "***"],
          removedCharacters: "U+202E, U+0007, U+2066, U+2069",
        },
      },
      {
        actor_kind: "system",
        action: "user.name-cleaned",
        entity: "user",
        entity_id: String(tab),
        changes: { firstname: ["***", "***"], removedCharacters: "U+0009" },
      },
      expect.objectContaining({ action: "user.name-cleaned", entity_id: String(every) }),
      {
        actor_kind: "system",
        action: "certificate.name-cleaned",
        entity: "certificate",
        entity_id: String(dirtyCertificate),
        changes: { name: ["***", "***"], removedCharacters: "U+202E, U+0007, U+2066, U+2069" },
      },
    ]);
    // the Protokoll tab reads them in German
    expect(log.map((entry) => AUDIT_ACTION_LABELS[entry.action as keyof typeof AUDIT_ACTION_LABELS])).toEqual(
      [
        "Steuerzeichen aus dem Namen entfernt",
        "Steuerzeichen aus dem Namen entfernt",
        "Steuerzeichen aus dem Namen entfernt",
        "Steuerzeichen aus dem Namen der Bescheinigung entfernt",
      ],
    );
    expect(describeAuditChanges(log[1]?.changes as Record<string, unknown>)).toEqual([
      "Vorname: *** → ***",
      "Entfernte Zeichen: U+0009",
    ]);
    const everyChanges = (log[2]?.changes ?? {}) as { removedCharacters: string };
    expect(everyChanges.removedCharacters.split(", ")).toHaveLength(CONTROLS.length);
    expect(
      notices.some((n) => /3 Konten.*1 Bescheinigung/.test(n)),
      notices.join("\n"),
    ).toBe(true);
  });
});
