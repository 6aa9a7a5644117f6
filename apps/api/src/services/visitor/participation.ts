import { schema } from "@app/db";
import { berlinDate, congressTiming, isTicketed, MSG, REFUSALS } from "@app/shared";
import { and, desc, eq } from "drizzle-orm";
import { AppError, refuse } from "../../lib/app-error";
import { queueMail } from "../../mail-delivery/outbox";
import { appLink, userMailVariables } from "../auth/user-rows";
import type { ServiceDeps } from "../deps";
import { loadViewer, type ViewerDeps } from "./viewer";

const { congresses, participations, users } = schema;

export interface ParticipationView {
  id: number;
  congress: { id: number; title: string };
  createdAt: Date;
}

async function ownParticipations(ctx: ViewerDeps, userId: number): Promise<ParticipationView[]> {
  const rows = await ctx.db
    .select({
      id: participations.id,
      createdAt: participations.createdAt,
      congressId: congresses.id,
      title: congresses.title,
    })
    .from(participations)
    .innerJoin(congresses, eq(congresses.id, participations.congressId))
    .where(eq(participations.userId, userId))
    .orderBy(desc(participations.createdAt), desc(participations.id));
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    congress: { id: r.congressId, title: r.title },
  }));
}

/**
 * Signs the visitor up for a free event and queues the participation confirmation in the same
 * transaction. Events with a ticket id get their participation from the paid ticket order only, never here.
 */
export async function createParticipation(
  ctx: ViewerDeps & Pick<ServiceDeps, "mail">,
  { userId, congressId }: { userId: number; congressId: number },
): Promise<ParticipationView> {
  const viewer = await loadViewer(ctx, userId);
  const [congress] = await ctx.db.select().from(congresses).where(eq(congresses.id, congressId));
  if (!congress || (!congress.visible && !viewer.isStaff)) {
    throw refuse(REFUSALS.unknownCongress, `congress ${congressId}`);
  }
  if (isTicketed(congress)) {
    throw refuse(REFUSALS.ticketRequired, "ticketed event", "ticket-required");
  }
  if (congressTiming(congress.firstDay, congress.lastDay, berlinDate(ctx.clock.now())).inPast) {
    throw refuse(REFUSALS.congressOver, "event over", "past");
  }
  const { created, mailId } = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(participations)
      .values({ userId: viewer.id, congressId })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      throw refuse(REFUSALS.alreadyParticipating, "already participating", "already");
    }
    const [user] = await tx.select().from(users).where(eq(users.id, viewer.id));
    const mailId = user
      ? await queueMail(tx, {
          templateName: "participation-confirmation",
          to: user.email,
          userId: user.id,
          congressId,
          idempotencyKey: `participation:${created.id}`,
          variables: {
            ...userMailVariables(user),
            congressTitle: congress.title,
            url: appLink(ctx.env.APP_URL, ""),
          },
        })
      : null;
    return { created, mailId };
  });
  await ctx.mail.dispatch([mailId]);
  return {
    id: created.id,
    createdAt: created.createdAt,
    congress: { id: congress.id, title: congress.title },
  };
}

/** Cancels one's own participation in an event without ticket id; answers the remaining participations. */
export async function cancelParticipation(
  ctx: ViewerDeps,
  { userId, participationId }: { userId: number; participationId: number },
): Promise<ParticipationView[]> {
  const viewer = await loadViewer(ctx, userId);
  const [row] = await ctx.db
    .select({ id: participations.id, congress: congresses })
    .from(participations)
    .innerJoin(congresses, eq(congresses.id, participations.congressId))
    // another user's participation looks exactly like a missing one
    .where(and(eq(participations.id, participationId), eq(participations.userId, viewer.id)));
  if (!row) {
    throw refuse(REFUSALS.participationNotFound, `participation ${participationId}`);
  }
  if (isTicketed(row.congress)) {
    throw new AppError("FORBIDDEN", "ticketed participation", MSG.participationCancelTicketed);
  }
  await ctx.db
    .delete(participations)
    .where(and(eq(participations.id, participationId), eq(participations.userId, viewer.id)));
  return ownParticipations(ctx, viewer.id);
}
