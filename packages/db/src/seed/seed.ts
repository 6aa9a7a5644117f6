import { MAIL_CATALOGUE } from "@app/mail";
import { berlinDate, type IsoDate } from "@app/shared";
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { hashPassword } from "../password";
import {
  certificateIssuer,
  congressContents,
  congresses,
  congressPackageOrders,
  congressPackages,
  congressTicketOrders,
  mailTemplates,
  participations,
  users,
} from "../schema";
import {
  DEMO_PARTICIPANT_STATE,
  DEMO_USERS,
  type DemoUserKey,
  demoCongresses,
  demoContents,
  demoPackages,
} from "./demo-data";

export interface SeedResult {
  userIds: Record<DemoUserKey, number>;
}

/**
 * Seeds the demo data. Idempotent: rows are keyed by fixed ids or natural keys, existing rows keep
 * their data, and only the demo events' dates move with `today` so every overview case stays visible.
 */
export async function seedDemo(db: Db, today: IsoDate = berlinDate()): Promise<SeedResult> {
  const passwordHashes = await Promise.all(
    DEMO_USERS.map((user) => (user.password ? hashPassword(user.password) : Promise.resolve(null))),
  );

  return db.transaction(async (tx) => {
    const userIds = {} as Record<DemoUserKey, number>;
    for (const [index, user] of DEMO_USERS.entries()) {
      const now = new Date();
      await tx
        .insert(users)
        .values({
          email: user.email,
          firstname: user.firstname,
          lastname: user.lastname,
          passwordHash: passwordHashes[index] ?? null,
          roles: [...user.roles],
          active: user.active,
          emailConfirmedAt: user.active ? now : null,
          newsletter: user.newsletter,
          newsletterConsentAt: user.newsletter ? now : null,
          migrationHash: "migrationHash" in user ? user.migrationHash : null,
        })
        .onConflictDoNothing();
      const [row] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${user.email})`);
      if (!row) {
        throw new Error(`seed: user ${user.email} missing after insert`);
      }
      userIds[user.key] = row.id;
    }

    await tx
      .insert(congresses)
      .values(demoCongresses(today))
      .onConflictDoUpdate({
        target: congresses.id,
        set: { firstDay: sql`excluded.first_day`, lastDay: sql`excluded.last_day` },
      });
    await tx
      .insert(congressContents)
      .values(demoContents(today))
      .onConflictDoUpdate({ target: congressContents.id, set: { data: sql`excluded.data` } });
    await tx
      .insert(congressPackages)
      .values(demoPackages(today))
      .onConflictDoUpdate({
        target: congressPackages.id,
        set: { availabilityDate: sql`excluded.availability_date` },
      });
    // explicit ids above leave the sequences behind; move them past the seeded rows
    for (const table of ["congresses", "congress_contents", "congress_packages"]) {
      await tx.execute(
        sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT GREATEST(max(id), 1) FROM ${sql.identifier(table)}))`,
      );
    }

    const participant = userIds.participant;
    await tx
      .insert(participations)
      .values(
        DEMO_PARTICIPANT_STATE.participations.map((congressId) => ({ userId: participant, congressId })),
      )
      .onConflictDoNothing();
    await tx
      .insert(congressTicketOrders)
      .values(DEMO_PARTICIPANT_STATE.ticketOrders.map((order) => ({ ...order, userId: participant })))
      .onConflictDoNothing();
    await tx
      .insert(congressPackageOrders)
      .values(DEMO_PARTICIPANT_STATE.packageOrders.map((order) => ({ ...order, userId: participant })))
      .onConflictDoNothing();

    await tx
      .insert(mailTemplates)
      .values(
        Object.values(MAIL_CATALOGUE).map((mail) => ({
          name: mail.name,
          description: `<p>${mail.description}</p>`,
          subject: mail.defaultSubject,
          content: mail.defaultContent,
          congressId: null,
        })),
      )
      .onConflictDoNothing();

    // the organiser the demo's Teilnahmebescheinigungen name (ADR 0115); an admin's own stays
    await tx
      .insert(certificateIssuer)
      .values({
        id: 1,
        name: "Kongress-Plattform (Demo)",
        address: "Musterstraße 1\n10115 Berlin",
        signatory: "Dr. Erika Mustermann, Fortbildungsleitung",
      })
      .onConflictDoNothing();

    return { userIds };
  });
}

/** True when the database holds no users yet; dev seeds only then. */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).limit(1);
  return rows.length === 0;
}
