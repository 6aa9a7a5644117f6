import { type Db, type DbOrTx, schema } from "@app/db";
import {
  isEventMail,
  MAIL_CATALOGUE,
  MAIL_NAMES,
  type MailName,
  renderMail,
  type StoredTemplate,
  sanitizeMailHtml,
  templateError,
  templateProblem,
  unknownVariables,
} from "@app/mail";
import {
  MSG_ADMIN,
  MSG_TEMPLATES,
  type ZCopySourceInput,
  type ZCopyTemplatesInput,
  type ZMailTemplateCreateInput,
  type ZMailTemplateInput,
  type ZMailTemplatePageInput,
} from "@app/shared";
import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { foreignKeyViolation, uniqueViolation } from "../../lib/db-errors";
import { adminTable } from "../../lib/paging";
import { newToken } from "../../lib/tokens";
import { queueMail } from "../../mail-delivery/outbox";
import type { ServiceDeps } from "../deps";
import { adminActor, changedFields, createdFields, recordAudit } from "./audit";
import { requireCongress } from "./audited-rows";

const { mailTemplates, congresses, users } = schema;

const asMailName = (name: string): MailName => {
  if (!(MAIL_NAMES as readonly string[]).includes(name)) {
    throw new AppError("BAD_REQUEST", `unknown mail ${name}`, MSG_TEMPLATES.unknownName);
  }
  return name as MailName;
};

/**
 * An event's own template is made only of a mail sent about one event (`perEvent` in the catalogue): one
 * of a mail about the account alone (password reset, sign-in link, …) would never be sent.
 */
const asEventMailName = (name: string): MailName => {
  const mail = asMailName(name);
  if (!isEventMail(mail)) {
    throw new AppError("BAD_REQUEST", `mail ${mail} is not sent per event`, MSG_TEMPLATES.notPerEvent);
  }
  return mail;
};

/**
 * The template as it will be stored and rendered (content sanitised), refused when it cannot render or
 * uses more of Handlebars than variables and conditions (ADR 0057). The rule is checked on the template
 * as typed (the admin's message names what they wrote) and on the sanitised HTML that is stored.
 */
function renderable(input: { subject: string; content: string }): StoredTemplate {
  const template = { subject: input.subject, content: sanitizeMailHtml(input.content) };
  const problem = templateProblem(input, { html: false }) ?? templateProblem(template, { html: true });
  if (problem?.kind === "not-allowed") {
    throw new AppError("BAD_REQUEST", `template refused: ${problem.message}`, MSG_TEMPLATES.unsafeSyntax);
  }
  const error = problem?.message ?? templateError(template);
  if (error) {
    throw new AppError("BAD_REQUEST", `template does not compile: ${error}`, MSG_TEMPLATES.syntaxError);
  }
  return template;
}

/** The templates table's rows: the general templates (`congressId` null) or those of one event, by name. */
function templateRows(db: Db, where: SQL | undefined) {
  return db
    .select({ template: mailTemplates, congressTitle: congresses.title })
    .from(mailTemplates)
    .leftJoin(congresses, eq(congresses.id, mailTemplates.congressId))
    .where(where)
    .orderBy(asc(mailTemplates.name)) // one template per mail and event (a unique index): a total order
    .$dynamic();
}

const ofCongress = (congressId: number | null) =>
  congressId === null ? isNull(mailTemplates.congressId) : eq(mailTemplates.congressId, congressId);

type TemplateRow = Awaited<ReturnType<typeof templateRows>>[number];
const withCongressTitle = ({ template, congressTitle }: TemplateRow) => ({
  ...template,
  congress: template.congressId === null ? null : { id: template.congressId, title: congressTitle ?? "" },
});

const templateTable = adminTable(mailTemplates, templateRows, withCongressTitle);

/** General templates, or those of one event (REST and the copy form's answer). */
export function listTemplates(db: Db, congressId: number | null) {
  return templateTable.list(db, ofCongress(congressId));
}

/** One page of the admin's templates table, chosen and ordered as `listTemplates`. */
export function pageTemplates(db: Db, input: z.output<typeof ZMailTemplatePageInput>) {
  return templateTable.page(db, input, ofCongress(input.congressId));
}

type TemplateValues = Omit<typeof mailTemplates.$inferInsert, "id" | "createdAt" | "updatedAt">;

/**
 * Inserts (or, with an id, updates) a template. An event that does not exist and a second template for the
 * same mail and event are the admin's input, answered with 400 and 409 rather than a database error.
 */
async function writeTemplate(db: DbOrTx, id: number | undefined, values: TemplateValues) {
  if (values.congressId !== null && values.congressId !== undefined) {
    await requireCongress(db, values.congressId);
  }
  try {
    const [saved] = id
      ? await db.update(mailTemplates).set(values).where(eq(mailTemplates.id, id)).returning()
      : await db
          .insert(mailTemplates)
          .values(values)
          .onConflictDoUpdate({
            target: [mailTemplates.name, mailTemplates.congressId],
            set: { subject: values.subject, content: values.content, description: values.description },
          })
          .returning();
    return saved;
  } catch (error) {
    if (uniqueViolation(error)) {
      throw new AppError(
        "CONFLICT",
        `template ${values.name} exists for ${values.congressId}`,
        MSG_TEMPLATES.duplicate,
      );
    }
    if (foreignKeyViolation(error)) {
      throw new AppError("BAD_REQUEST", `congress ${values.congressId} missing`, MSG_ADMIN.congressRequired);
    }
    throw error;
  }
}

/** Saves a template with sanitised HTML; variables the mail does not offer are reported, not refused. */
export async function saveTemplate(db: Db, input: z.output<typeof ZMailTemplateInput>, actorId: number) {
  const name = input.congress === null ? asMailName(input.name) : asEventMailName(input.name);
  const values = {
    name,
    congressId: input.congress,
    ...renderable(input),
    description: sanitizeMailHtml(input.description),
  };
  const saved = await db.transaction(async (tx) => {
    // the row this save replaces: by id, or the one the upsert below meets (same mail and event)
    const [before] = await tx
      .select()
      .from(mailTemplates)
      .where(
        input.id
          ? eq(mailTemplates.id, input.id)
          : and(
              eq(mailTemplates.name, name),
              values.congressId == null
                ? isNull(mailTemplates.congressId)
                : eq(mailTemplates.congressId, values.congressId),
            ),
      )
      .for("update");
    const row = await writeTemplate(tx, input.id, values);
    if (!row) {
      throw new AppError("NOT_FOUND", `template ${input.id}`, "Die Vorlage wurde nicht gefunden.");
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "template.save",
      entity: "mail-template",
      entityId: row.id,
      changes: before ? changedFields(before, values) : createdFields(values),
    });
    return row;
  });
  const unknown = unknownVariables(saved, Object.keys(MAIL_CATALOGUE[name].variables));
  return { template: saved, unknownVariables: unknown };
}

/**
 * "Neue Vorlage": an event's own template of one mail, made from the general template of that mail (the
 * built-in default where none is stored), which the admin then edits. A second one for the same event and
 * mail is refused (409): that one is edited instead.
 */
export async function createTemplate(
  db: Db,
  input: z.output<typeof ZMailTemplateCreateInput>,
  actorId: number,
) {
  const name = asEventMailName(input.name);
  const congressId = input.congress;
  const id = await db.transaction(async (tx) => {
    await requireCongress(tx, congressId, MSG_TEMPLATES.congressRequired);
    const [general] = await tx
      .select()
      .from(mailTemplates)
      .where(and(eq(mailTemplates.name, name), isNull(mailTemplates.congressId)));
    const values = {
      name,
      congressId,
      subject: general?.subject ?? MAIL_CATALOGUE[name].defaultSubject,
      content: general?.content ?? MAIL_CATALOGUE[name].defaultContent,
      description: general?.description ?? "",
    };
    const [row] = await tx.insert(mailTemplates).values(values).onConflictDoNothing().returning();
    if (!row) {
      throw new AppError("CONFLICT", `template ${name} exists for ${congressId}`, MSG_TEMPLATES.duplicate);
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "template.create",
      entity: "mail-template",
      entityId: row.id,
      changes: createdFields({
        ...values,
        startedFrom: general ? "allgemeine Vorlage" : "eingebauter Standardtext",
      }),
    });
    return row.id;
  });
  const [created] = await templateTable.list(db, eq(mailTemplates.id, id));
  if (!created) {
    throw new AppError("NOT_FOUND", `template ${id}`, "Die Vorlage wurde nicht gefunden.");
  }
  return created;
}

/**
 * The templates of an event that copying takes, by name: those of the mails an event sends. A template of
 * a mail no event sends (stored before "Neue Vorlage" offered only the event's mails) is left out: it would
 * never be sent.
 */
async function copySource(db: DbOrTx, congressId: number) {
  const stored = await db
    .select()
    .from(mailTemplates)
    .where(eq(mailTemplates.congressId, congressId))
    .orderBy(asc(mailTemplates.name));
  return stored.filter((t) => isEventMail(t.name));
}

/** What copying from an event would take (the copy form asks before its confirmation). */
export async function listCopySource(db: Db, input: z.output<typeof ZCopySourceInput>) {
  return { names: (await copySource(db, input.congressId)).map((t) => t.name) };
}

/**
 * Upserts every template of one event onto another in one transaction and says how many. A source without
 * templates of its own (`copySource`) is refused: copying nothing is no success.
 */
export async function copyTemplates(db: Db, input: z.output<typeof ZCopyTemplatesInput>, actorId: number) {
  return db.transaction(async (tx) => {
    await requireCongress(tx, input.copy_to, MSG_TEMPLATES.copyToRequired);
    const source = await copySource(tx, input.copy_from);
    if (source.length === 0) {
      const [from] = await tx
        .select({ title: congresses.title })
        .from(congresses)
        .where(eq(congresses.id, input.copy_from));
      if (!from) {
        throw new AppError(
          "BAD_REQUEST",
          `congress ${input.copy_from} missing`,
          MSG_TEMPLATES.copyFromRequired,
        );
      }
      throw new AppError(
        "BAD_REQUEST",
        `congress ${input.copy_from} has no templates`,
        MSG_TEMPLATES.copySourceEmpty.replace("{title}", from.title),
      );
    }
    for (const t of source) {
      await tx
        .insert(mailTemplates)
        .values({
          name: t.name,
          congressId: input.copy_to,
          subject: t.subject,
          content: t.content,
          description: t.description,
        })
        .onConflictDoUpdate({
          target: [mailTemplates.name, mailTemplates.congressId],
          set: { subject: t.subject, content: t.content, description: t.description },
        });
    }
    await recordAudit(tx, {
      actor: adminActor(actorId),
      action: "template.copy",
      entity: "mail-template",
      entityId: null,
      changes: { copyFrom: input.copy_from, copyTo: input.copy_to, templates: source.map((t) => t.name) },
    });
    return { copied: source.length, names: source.map((t) => t.name) };
  });
}

/** Renders a template (as edited, not yet saved) with the sample data of its test mail. */
export async function previewTemplate(
  ctx: Pick<ServiceDeps, "env">,
  input: { name: string; subject: string; content: string },
) {
  const name = asMailName(input.name);
  const rendered = await renderMail(renderable(input), testMailSample(name, ctx.env.APP_URL));
  return { subject: rendered.subject, html: rendered.html };
}

/**
 * The sample data of a mail for a test mail: its links lead to this installation (`APP_URL`) instead of the
 * catalogue's example.com, so the admin can follow them.
 */
export function testMailSample(name: MailName, appUrl: string): Record<string, unknown> {
  const sample = MAIL_CATALOGUE[name].sample;
  return Object.fromEntries(
    Object.entries(sample).map(([key, value]) => {
      if (typeof value !== "string" || !value.startsWith(SAMPLE_ORIGIN)) {
        return [key, value];
      }
      const { pathname, search } = new URL(value);
      return [key, new URL(`${pathname}${search}`, appUrl).toString()];
    }),
  );
}
const SAMPLE_ORIGIN = "https://example.com/";

/** Sends the edited template with sample data to the admin's own address. */
export async function sendTestMail(
  ctx: Pick<ServiceDeps, "db" | "mail" | "env">,
  input: { name: string; subject: string; content: string; actorId: number },
) {
  const name = asMailName(input.name);
  const template = renderable(input);
  const [admin] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, input.actorId));
  if (!admin) {
    throw new AppError("UNAUTHORIZED", "admin missing");
  }
  const id = await queueMail(ctx.db, {
    templateName: name,
    to: admin.email,
    userId: input.actorId,
    idempotencyKey: `test-mail:${newToken()}`,
    variables: {
      ...testMailSample(name, ctx.env.APP_URL),
      __template: template,
    },
  });
  await ctx.mail.dispatch([id]);
  return { to: admin.email };
}
