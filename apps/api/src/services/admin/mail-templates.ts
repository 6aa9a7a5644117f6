import { type Db, type DbOrTx, schema } from "@app/db";
import {
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
  type ZCopyTemplatesInput,
  type ZMailTemplateInput,
  type ZMailTemplatePageInput,
} from "@app/shared";
import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../lib/app-error";
import { foreignKeyViolation, uniqueViolation } from "../../lib/db-errors";
import { adminTable } from "../../lib/paging";
import { newToken } from "../../lib/tokens";
import { queueMail } from "../../mail/outbox";
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
 * The template as it will be stored and rendered (content sanitised), refused when it cannot render or
 * uses more of Handlebars than variables and conditions (issue 20). The rule is checked on the template
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
  const name = asMailName(input.name);
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

/** Upserts every template of one event onto another in one transaction. */
export async function copyTemplates(db: Db, input: z.output<typeof ZCopyTemplatesInput>, actorId: number) {
  await db.transaction(async (tx) => {
    await requireCongress(tx, input.copy_to, MSG_TEMPLATES.copyDifferent);
    const source = await tx.select().from(mailTemplates).where(eq(mailTemplates.congressId, input.copy_from));
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
  });
  return listTemplates(db, input.copy_to);
}

/** Renders a template (as edited, not yet saved) with the mail's sample data. */
export async function previewTemplate(input: { name: string; subject: string; content: string }) {
  const name = asMailName(input.name);
  const rendered = await renderMail(renderable(input), MAIL_CATALOGUE[name].sample);
  return { subject: rendered.subject, html: rendered.html };
}

/** Sends the edited template with sample data to the admin's own address. */
export async function sendTestMail(
  ctx: Pick<ServiceDeps, "db" | "mail">,
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
      ...MAIL_CATALOGUE[name].sample,
      __template: template,
    },
  });
  await ctx.mail.dispatch([id]);
  return { to: admin.email };
}
