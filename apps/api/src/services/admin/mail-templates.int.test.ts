import { schema } from "@app/db";
import { MAIL_CATALOGUE, type MailName } from "@app/mail";
import { MSG_TEMPLATES } from "@app/shared";
import { asc, eq, isNull } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMail } from "../../mail-delivery/outbox";
import { createCongress, createUser, trpcMutation, trpcQuery } from "../../testing/builders";
import { createTestApp, type TestApp } from "../../testing/harness";

const { mailTemplates, users } = schema;

type User = typeof users.$inferSelect;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mail: true });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.db.db;

let seq = 0;
const unique = () => `${Date.now().toString(36)}${++seq}`;

let admin: User;
let adminToken: string;
beforeAll(async () => {
  admin = await createUser(db(), {
    email: `admin.${unique()}@example.com`,
    firstname: "Anna",
    lastname: "Admin",
    roles: ["ROLE_USER", "ROLE_ADMIN"],
  });
  adminToken = await t.tokenFor(admin.id, ["ROLE_USER", "ROLE_ADMIN"]);
});

// ---------------------------------------------------------------------------------------------------------
// requests

interface Body {
  headers: Record<string, string>;
  payload: Buffer;
}

/** A multipart body with text fields, as the admin forms send them. */
function form(fields: Record<string, string>): Body {
  const boundary = "----mail-template-test-boundary-4c1d";
  const chunks = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(chunks),
  };
}

async function rest(method: "GET" | "POST", url: string, body?: Body) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}`, ...body?.headers },
    ...(body && { payload: body.payload }),
  });
}

const trpcAdminQuery = (path: string, input?: unknown) => trpcQuery(t, path, input, { token: adminToken });
const trpcAdminMutation = (path: string, input: unknown) =>
  trpcMutation(t, path, input, { token: adminToken });

/** The template edit dialog (`mailTemplateData`). */
function templateForm(values: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "participation-confirmation",
    congress: null,
    subject: "Ihre Anmeldung",
    content: "<p>Hallo {{userFullName}}</p>",
    description: "",
    ...values,
  };
}

const postTemplate = (data: Record<string, unknown>) =>
  rest("POST", "/api/mail-template/", form({ mailTemplateData: JSON.stringify(data) }));
const postCopy = (from: unknown, to: unknown) =>
  rest("POST", "/api/mail-template/copy", form({ copy_from: String(from), copy_to: String(to) }));

/** Stores a template directly (no sanitising), for list, copy and delivery tests. */
async function storeTemplate(name: MailName, congressId: number | null, subject: string, content = "") {
  const [row] = await db()
    .insert(mailTemplates)
    .values({ name, congressId, subject, content: content || `<p>${subject}</p>` })
    .returning();
  if (!row) {
    throw new Error("template not created");
  }
  return row;
}

const templatesOf = (congressId: number) =>
  db()
    .select()
    .from(mailTemplates)
    .where(eq(mailTemplates.congressId, congressId))
    .orderBy(asc(mailTemplates.name));

/** Queues one mail and waits for it at the SMTP server. */
async function deliver(name: MailName, congressId: number | null, variables: Record<string, unknown> = {}) {
  const to = `empfang.${unique()}@example.com`;
  const id = await queueMail(db(), {
    templateName: name,
    to,
    congressId,
    variables: { ...MAIL_CATALOGUE[name].sample, ...variables },
    idempotencyKey: `template-test:${unique()}`,
  });
  await t.jobs?.dispatch([id]);
  return t.smtp.waitFor((m) => m.to.includes(to));
}

// ---------------------------------------------------------------------------------------------------------

describe("saving", () => {
  it("removes scripts, event handlers, javascript: links, iframes and styles, keeps the formatting", async () => {
    const c = await createCongress(db());
    const content = [
      "<h2>Willkommen</h2>",
      "<p>Hallo <strong>{{userFullName}}</strong>, <em>schön</em> und <u>wichtig</u>.</p>",
      '<script>alert("x")</script>',
      '<p onclick="steal()">Klick</p>',
      '<img src="https://example.com/logo.png" onerror="steal()">',
      '<a href="javascript:alert(1)">Böse</a>',
      '<a href="https://example.com/start" class="button">Los</a>',
      '<iframe src="https://evil.example.com/"></iframe>',
      '<p style="position:fixed">Overlay</p>',
      "<ul><li>Eins</li><li>Zwei</li></ul>",
      "{{#if newsletter}}<p>Newsletter</p>{{/if}}",
    ].join("");
    const res = await postTemplate(templateForm({ congress: { id: c.id }, content }));
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().template.content as string;
    const [row] = await templatesOf(c.id);
    expect(row?.content).toBe(saved);

    for (const gone of [
      "<script",
      "alert(",
      "onclick",
      "onerror",
      "steal",
      "javascript:",
      "<iframe",
      "position",
    ]) {
      expect(saved, gone).not.toContain(gone);
    }
    for (const kept of [
      "<h2>Willkommen</h2>",
      "<strong>{{userFullName}}</strong>",
      "<em>schön</em>",
      "<u>wichtig</u>",
      "<ul><li>Eins</li><li>Zwei</li></ul>",
      '<a href="https://example.com/start" class="button">Los</a>',
      '<img src="https://example.com/logo.png" />',
      "{{#if newsletter}}<p>Newsletter</p>{{/if}}",
    ]) {
      expect(saved, kept).toContain(kept);
    }
    expect(saved).toContain("Böse");
    expect(saved).toContain("Overlay");
  });

  it("reports variables the mail does not offer and saves anyway", async () => {
    const c = await createCongress(db());
    const unknown = await postTemplate(
      templateForm({
        name: "registration-confirmation",
        congress: c.id,
        subject: "Willkommen zu {{congressTitle}}",
        content: "<p>Hallo {{userFullName}}</p>",
      }),
    );
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.json().unknownVariables).toEqual(["congressTitle"]);
    const [row] = await templatesOf(c.id);
    expect(row).toMatchObject({
      name: "registration-confirmation",
      subject: "Willkommen zu {{congressTitle}}",
    });

    const known = await trpcAdminMutation(
      "admin.mailTemplates.save",
      templateForm({
        id: row?.id,
        name: "registration-confirmation",
        congress: c.id,
        subject: "Bitte bestätigen, {{firstname}}",
        content: '<p><a href="{{url}}">Bestätigen</a></p>{{#if newsletter}}Newsletter{{/if}}',
      }),
    );
    expect(known.status, known.body).toBe(200);
    expect(known.data.unknownVariables).toEqual([]);
    expect(await templatesOf(c.id)).toHaveLength(1);
    expect((await templatesOf(c.id))[0]?.subject).toBe("Bitte bestätigen, {{firstname}}");
  });

  it("refuses a mail name that does not exist", async () => {
    const res = await postTemplate(templateForm({ name: "gibt-es-nicht" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(MSG_TEMPLATES.unknownName);
  });
});

describe("list", () => {
  it("answers the general templates without congress, an event's templates with it", async () => {
    const c = await createCongress(db(), { title: `Liste ${unique()}` });
    const other = await createCongress(db());
    const general = await storeTemplate("order-package", null, "Allgemein Paket");
    const specific = await storeTemplate("order-package", c.id, "Speziell Paket");
    await storeTemplate("order-ticket", other.id, "Anderer Kongress");

    const all = await rest("GET", "/api/mail-template/");
    expect(all.statusCode, all.body).toBe(200);
    const generalList = all.json() as { id: number; congress: unknown; congressId: number | null }[];
    expect(generalList.map((x) => x.id)).toContain(general.id);
    expect(generalList.every((x) => x.congressId === null && x.congress === null)).toBe(true);

    const mine = await rest("GET", `/api/mail-template/?congress=${c.id}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual([
      expect.objectContaining({
        id: specific.id,
        name: "order-package",
        subject: "Speziell Paket",
        congress: { id: c.id, title: c.title },
      }),
    ]);

    const viaTrpc = await trpcAdminQuery("admin.mailTemplates.list", { congressId: other.id });
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.data.map((x: { subject: string }) => x.subject)).toEqual(["Anderer Kongress"]);
  });
});

describe("copy", () => {
  it("copies every template of one event onto another, overwriting those of the same name", async () => {
    const a = await createCongress(db());
    const b = await createCongress(db());
    await storeTemplate("event-day", a.id, "A Tag", "<p>A Inhalt Tag</p>");
    await storeTemplate("order-ticket", a.id, "A Ticket", "<p>A Inhalt Ticket</p>");
    const existing = await storeTemplate("order-ticket", b.id, "B Ticket alt", "<p>B alt</p>");
    const before = await templatesOf(a.id);

    const res = await postCopy(a.id, b.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      title: "E-Mail-Templates",
      detail: "E-Mail-Templates wurden erfolgreich kopiert.",
      copied: 2,
    });

    const copied = await templatesOf(b.id);
    expect(copied.map((x) => [x.name, x.subject, x.content])).toEqual([
      ["event-day", "A Tag", "<p>A Inhalt Tag</p>"],
      ["order-ticket", "A Ticket", "<p>A Inhalt Ticket</p>"],
    ]);
    expect(copied.find((x) => x.name === "order-ticket")?.id).toBe(existing.id);
    expect(await templatesOf(a.id)).toEqual(before);
  });

  it("refuses the same event, zero or negative ids with 400", async () => {
    const a = await createCongress(db());
    await storeTemplate("event-day", a.id, "Bleibt");
    for (const [from, to, message] of [
      [a.id, a.id, MSG_TEMPLATES.copyDifferent],
      [0, a.id, MSG_TEMPLATES.copyFromRequired],
      [a.id, 0, MSG_TEMPLATES.copyToRequired],
      [-1, a.id, MSG_TEMPLATES.copyFromRequired],
      [a.id, -5, MSG_TEMPLATES.copyToRequired],
      ["", a.id, MSG_TEMPLATES.copyFromRequired],
    ]) {
      const res = await postCopy(from, to);
      expect(res.statusCode, `${from} → ${to}`).toBe(400);
      expect(res.json().detail, `${from} → ${to}`).toBe(message);
    }
    const viaTrpc = await trpcAdminMutation("admin.mailTemplates.copy", { copy_from: a.id, copy_to: a.id });
    expect(viaTrpc.status).toBe(400);
    expect(viaTrpc.error?.detail).toBe(MSG_TEMPLATES.copyDifferent);
    expect((await templatesOf(a.id)).map((x) => x.subject)).toEqual(["Bleibt"]);
  });

  it("changes nothing when the target event does not exist", async () => {
    const a = await createCongress(db());
    await storeTemplate("event-day", a.id, "Quelle");
    const countAll = async () => (await db().select().from(mailTemplates)).length;
    const before = await countAll();
    const res = await postCopy(a.id, 2_000_000_000);
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await countAll()).toBe(before);
    expect(await templatesOf(2_000_000_000)).toEqual([]);
  });
});

/** The mails about an account, never about one event: they have no event's own template. */
const ACCOUNT_MAILS = [
  "password-reset",
  "sign-in-link",
  "migration-set-password",
  "registration-existing-account",
] as const;

describe("a congress's own template (ADR 0088)", () => {
  const create = (input: unknown) => trpcAdminMutation("admin.mailTemplates.create", input);

  it("starts from the general template of that mail, is listed under the event and recorded", async () => {
    const c = await createCongress(db());
    const general = await storeTemplate(
      "order-admin",
      null,
      `Allgemein ${unique()}`,
      "<p>Allgemeiner Text</p>",
    );
    const res = await create({ congress: c.id, name: "order-admin" });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toMatchObject({
      name: "order-admin",
      congress: { id: c.id, title: c.title },
      subject: general.subject,
      content: "<p>Allgemeiner Text</p>",
    });
    expect((await templatesOf(c.id)).map((x) => x.name)).toEqual(["order-admin"]);
    const listed = await trpcAdminQuery("admin.mailTemplates.getPage", { congressId: c.id, page: 1 });
    expect(listed.data.items.map((x: { name: string }) => x.name)).toEqual(["order-admin"]);
    const audit = await trpcAdminQuery("admin.audit.list", { entity: "mail-template", page: 1 });
    expect(audit.data.items[0]).toMatchObject({
      action: "template.create",
      entityId: String(res.data.id),
    });
    // the general template stays as it was
    const [stillGeneral] = await db().select().from(mailTemplates).where(eq(mailTemplates.id, general.id));
    expect(stillGeneral?.congressId).toBeNull();
  });

  it("starts from the built-in default when no general template is stored", async () => {
    const c = await createCongress(db());
    const res = await create({ congress: { id: c.id }, name: "order-ticket-package" });
    expect(res.status, res.body).toBe(200);
    expect(res.data.subject).toBe(MAIL_CATALOGUE["order-ticket-package"].defaultSubject);
    expect(res.data.content).toBe(MAIL_CATALOGUE["order-ticket-package"].defaultContent);
  });

  it("refuses a second one for the same event and mail, an unknown mail or event, and non-admins", async () => {
    const c = await createCongress(db());
    await storeTemplate("event-day", c.id, "Schon da");
    const twice = await create({ congress: c.id, name: "event-day" });
    expect(twice.status).toBe(409);
    expect(twice.error?.detail).toBe(MSG_TEMPLATES.duplicate);
    expect((await templatesOf(c.id)).map((x) => x.subject)).toEqual(["Schon da"]);

    const unknownMail = await create({ congress: c.id, name: "gibt-es-nicht" });
    expect(unknownMail.status).toBe(400);
    expect(unknownMail.error?.detail).toBe(MSG_TEMPLATES.unknownName);
    const noCongress = await create({ congress: 0, name: "event-day" });
    expect(noCongress.status).toBe(400);
    expect(noCongress.error?.detail).toBe(MSG_TEMPLATES.congressRequired);
    const missing = await create({ congress: 2_000_000_000, name: "event-day" });
    expect(missing.status).toBe(400);

    const visitor = await createUser(db(), { email: `besuch.${unique()}@example.com` });
    const visitorToken = await t.tokenFor(visitor.id, ["ROLE_USER"]);
    const refused = await trpcMutation(
      t,
      "admin.mailTemplates.create",
      { congress: c.id, name: "order-ticket" },
      { token: visitorToken },
    );
    expect(refused.status).toBe(403);
    expect((await templatesOf(c.id)).map((x) => x.name)).toEqual(["event-day"]);
  });

  it("the catalogue says which mails an event sends (the only ones offered for an event)", async () => {
    const catalogue = await trpcAdminQuery("admin.mailTemplates.getCatalogue");
    const perEvent = (catalogue.data as { name: string; perEvent: boolean }[])
      .filter((m) => m.perEvent)
      .map((m) => m.name);
    expect(perEvent.sort()).toEqual(
      [
        "certificate",
        "event-day",
        "order-admin",
        "order-package",
        "order-ticket",
        "order-ticket-package",
        "participation-confirmation",
        "registration-confirmation",
      ].sort(),
    );
  });

  it("refuses an event's own template of a mail no event sends, made or saved", async () => {
    const c = await createCongress(db());
    for (const name of ACCOUNT_MAILS) {
      const made = await create({ congress: c.id, name });
      expect(made.status, name).toBe(400);
      expect(made.error?.detail, name).toBe(MSG_TEMPLATES.notPerEvent);
      // nor through the edit dialog's save (REST and tRPC), which would make one too
      const saved = await postTemplate(templateForm({ name, congress: { id: c.id } }));
      expect(saved.statusCode, name).toBe(400);
      expect(saved.json().detail, name).toBe(MSG_TEMPLATES.notPerEvent);
      const viaTrpc = await trpcAdminMutation(
        "admin.mailTemplates.save",
        templateForm({ name, congress: c.id }),
      );
      expect(viaTrpc.status, name).toBe(400);
    }
    expect(await templatesOf(c.id)).toEqual([]);
    // their general template is saved as before
    const general = await postTemplate(
      templateForm({ name: "migration-set-password", subject: `Neu ${unique()}` }),
    );
    expect(general.statusCode, general.body).toBe(200);
    expect(general.json().template.congressId).toBeNull();
    // other tests send this mail with the built-in default
    await db().delete(mailTemplates).where(eq(mailTemplates.id, general.json().template.id));
  });

  it("copy leaves out a template of a mail no event sends (stored before the rule)", async () => {
    const a = await createCongress(db());
    const b = await createCongress(db());
    await storeTemplate("event-day", a.id, "A Tag");
    await storeTemplate("registration-existing-account", a.id, "A Konto");
    const res = await trpcAdminMutation("admin.mailTemplates.copy", { copy_from: a.id, copy_to: b.id });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toEqual({ copied: 1, names: ["event-day"] });
    // what the copy form asks before its confirmation says the same
    const asked = await trpcAdminQuery("admin.mailTemplates.getCopySource", { congressId: a.id });
    expect(asked.data).toEqual({ names: ["event-day"] });
    expect((await templatesOf(b.id)).map((x) => x.name)).toEqual(["event-day"]);

    const onlyStale = await createCongress(db(), { title: `Nur alt ${unique()}` });
    await storeTemplate("sign-in-link", onlyStale.id, "Alt");
    const nothing = await trpcAdminMutation("admin.mailTemplates.copy", {
      copy_from: onlyStale.id,
      copy_to: b.id,
    });
    expect(nothing.status).toBe(400);
    expect(nothing.error?.detail).toBe(MSG_TEMPLATES.copySourceEmpty.replace("{title}", onlyStale.title));
    const askedEmpty = await trpcAdminQuery("admin.mailTemplates.getCopySource", {
      congressId: onlyStale.id,
    });
    expect(askedEmpty.data).toEqual({ names: [] });
  });

  it("copy says how many it copied, and refuses a source without templates instead of copying nothing", async () => {
    const a = await createCongress(db());
    const b = await createCongress(db());
    await storeTemplate("event-day", a.id, "A Tag");
    await storeTemplate("order-ticket", a.id, "A Ticket");
    const res = await trpcAdminMutation("admin.mailTemplates.copy", { copy_from: a.id, copy_to: b.id });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toMatchObject({ copied: 2 });

    const empty = await createCongress(db(), { title: `Leer ${unique()}` });
    const nothing = await trpcAdminMutation("admin.mailTemplates.copy", {
      copy_from: empty.id,
      copy_to: b.id,
    });
    expect(nothing.status).toBe(400);
    expect(nothing.error?.detail).toBe(MSG_TEMPLATES.copySourceEmpty.replace("{title}", empty.title));
    const viaRest = await postCopy(empty.id, b.id);
    expect(viaRest.statusCode).toBe(400);
    expect(viaRest.json().detail).toBe(MSG_TEMPLATES.copySourceEmpty.replace("{title}", empty.title));
  });
});

describe("template at send time", () => {
  it("a congress template wins over the general one, the general one over the default", async () => {
    const c = await createCongress(db(), { title: `Sendekongress ${unique()}` });
    const other = await createCongress(db());
    const name: MailName = "participation-confirmation";
    expect(
      await db().select().from(mailTemplates).where(isNull(mailTemplates.congressId)),
    ).not.toContainEqual(expect.objectContaining({ name }));

    const byDefault = await deliver(name, c.id, { congressTitle: c.title });
    expect(byDefault.subject).toBe(`Ihre Anmeldung: ${c.title}`);

    const general = await postTemplate(
      templateForm({
        name,
        subject: "Allgemein: {{congressTitle}}",
        content: "<p>Allgemein {{userFullName}}</p>",
      }),
    );
    expect(general.statusCode, general.body).toBe(200);
    const byGeneral = await deliver(name, c.id, { congressTitle: c.title, userFullName: "Gustav General" });
    expect(byGeneral.subject).toBe(`Allgemein: ${c.title}`);
    expect(byGeneral.html).toContain("Allgemein Gustav General");

    const specific = await postTemplate(
      templateForm({
        name,
        congress: c.id,
        subject: "Speziell: {{congressTitle}}",
        content: "<p>Speziell</p>",
      }),
    );
    expect(specific.statusCode, specific.body).toBe(200);
    const bySpecific = await deliver(name, c.id, { congressTitle: c.title });
    expect(bySpecific.subject).toBe(`Speziell: ${c.title}`);
    expect(bySpecific.html).toContain("Speziell");

    // another event and a mail without event still get the general template
    expect((await deliver(name, other.id, { congressTitle: "Anders" })).subject).toBe("Allgemein: Anders");
    expect((await deliver(name, null, { congressTitle: "Ohne" })).subject).toBe("Allgemein: Ohne");
  }, 60_000);

  it("with no stored template at all the catalogue default is used", async () => {
    const name: MailName = "migration-set-password";
    expect(await db().select().from(mailTemplates).where(eq(mailTemplates.name, name))).toEqual([]);
    const mail = await deliver(name, null, { userFullName: "Dora Default" });
    expect(mail.subject).toBe(MAIL_CATALOGUE[name].defaultSubject);
    expect(mail.html).toContain("Dora Default");
  }, 30_000);
});

describe("preview and test mail", () => {
  it("preview renders the edited template with the sample data", async () => {
    const res = await trpcAdminMutation("admin.mailTemplates.preview", {
      name: "registration-confirmation",
      subject: "Hallo {{firstname}}",
      content: '<p>Liebe/r {{userFullName}}</p><script>alert(1)</script><a href="{{url}}">Link</a>',
    });
    expect(res.status, res.body).toBe(200);
    expect(res.data.subject).toBe("Hallo Erika");
    expect(res.data.html).toContain("Liebe/r Erika Mustermann");
    expect(res.data.html).toContain("http://app.test/confirm-mail/1/beispiel");
    expect(res.data.html).not.toContain("<script");
  });

  it("sendTest delivers the unsaved subject to the admin's own address", async () => {
    const subject = `Entwurf ${unique()}`;
    const res = await trpcAdminMutation("admin.mailTemplates.sendTest", {
      name: "password-reset",
      subject: `${subject} für {{firstname}}`,
      content: "<p>Test an {{userFullName}}</p>",
    });
    expect(res.status, res.body).toBe(200);
    expect(res.data).toEqual({ to: admin.email });
    const mail = await t.smtp.waitFor((m) => m.subject.startsWith(subject));
    expect(mail.to).toContain(admin.email);
    expect(mail.subject).toBe(`${subject} für Erika`);
    expect(mail.html).toContain("Test an Erika Mustermann");
    expect(await db().select().from(mailTemplates).where(eq(mailTemplates.name, "password-reset"))).toEqual(
      [],
    );
  }, 30_000);
});

describe("test mail links (ADR 0088)", () => {
  it("the sample's links point at this installation (APP_URL), not at example.com", async () => {
    const subject = `Linktest ${unique()}`;
    const res = await trpcAdminMutation("admin.mailTemplates.sendTest", {
      name: "participation-confirmation",
      subject,
      content: '<p><a href="{{url}}">Zur Übersicht</a></p>',
    });
    expect(res.status, res.body).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.subject === subject);
    expect(mail.html).toContain('href="http://app.test/"');
    expect(mail.html).not.toContain("example.com");
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------------------
// ADR 0057: Handlebars that sanitize-html reads as attribute text but that joins or opens markup once rendered

/**
 * Scripts, event handlers and script links of an HTML document as an HTML parser reads it (htmlparser2,
 * under sanitize-html, which here only reports and keeps everything), e.g. `img[onerror]`.
 */
function liveMarkupIn(html: string): string[] {
  const found: string[] = [];
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      "*": (tagName, attribs) => {
        if (["script", "iframe", "svg", "object", "embed"].includes(tagName)) {
          found.push(tagName);
        }
        for (const [name, value] of Object.entries(attribs)) {
          if (/^on/i.test(name) || /^\s*(javascript|data|vbscript):/i.test(value)) {
            found.push(`${tagName}[${name}]`);
          }
        }
        return { tagName, attribs };
      },
    },
  });
  return found;
}

const POLYGLOTS = [
  // comments swallow the end of an attribute, the next tag's attribute becomes markup
  '<img alt="{{!--">--}}<img alt=" src=x onerror=alert(document.domain) ">',
  '<img alt="{{!">}}<img alt=" src=x onerror=alert(1) ">',
  '<p title="{{! a }}">{{!-- b --}}Text</p>',
  // a block whose skipped branch holds the closing quote
  '<img alt="{{#if gibtEsNicht}}">{{/if}}<img alt=" src=x onerror=alert(1) ">',
  '<img alt="{{#unless newsletter}}">{{/unless}}<img alt=" src=x onerror=alert(1) ">',
  '<img alt="{{#if newsletter}}{{else}}">{{/if}}<img alt=" src=x onerror=alert(1) ">',
  '<img alt="{{#each liste}}">{{/each}}<img alt=" src=x onerror=alert(1) ">',
  '<a href="https://example.com/{{#if newsletter}}a{{/if}}">Link</a>',
  '<img alt="{{^newsletter}}">{{/newsletter}}<img alt=" src=x onerror=alert(1) ">',
  // partials, raw blocks, unescaped output, whitespace control, decorators, helpers with arguments
  "<p>{{> kopf}}</p>",
  '<img alt="{{#> kopf}}">{{/kopf}}<img alt=" src=x onerror=alert(1) ">',
  '{{{{raw}}}}<img alt="{{{{/raw}}}}">',
  "<p>{{{userFullName}}}</p>",
  "<p>{{& userFullName}}</p>",
  "<p>Hallo {{~userFullName~}}</p>",
  '<img alt="x" src="https://example.com/a.png">{{~#if newsletter~}}<p>NL</p>{{~/if~}}',
  "<p>{{*inline}}</p>",
  "<p>{{lookup this 'constructor'}}</p>",
  "<p>{{this}} {{../userFullName}} {{@root.userFullName}}</p>",
  '<p>{{#if newsletter "x"}}NL{{/if}}</p>',
];

describe("Handlebars that joins text across attributes (ADR 0057)", () => {
  it("refuses comments, blocks inside tags, partials, raw output and whitespace control on save, preview and test mail", async () => {
    const c = await createCongress(db());
    const before = await templatesOf(c.id);
    for (const content of POLYGLOTS) {
      for (const path of [
        "admin.mailTemplates.save",
        "admin.mailTemplates.preview",
        "admin.mailTemplates.sendTest",
      ]) {
        const res = await trpcAdminMutation(path, templateForm({ congress: c.id, content }));
        expect(res.status, `${path}: ${content}`).toBe(400);
        expect(res.error?.detail, `${path}: ${content}`).toBe(MSG_TEMPLATES.unsafeSyntax);
      }
      const form = await postTemplate(templateForm({ congress: c.id, content }));
      expect(form.statusCode, content).toBe(400);
      expect(form.json().detail).toBe(MSG_TEMPLATES.unsafeSyntax);
    }
    // the subject too: a comment or raw output there is refused the same way
    for (const subject of ["Hallo {{! x }}", "Hallo {{{firstname}}}", "Hallo {{> kopf}}"]) {
      const res = await trpcAdminMutation(
        "admin.mailTemplates.save",
        templateForm({ congress: c.id, subject }),
      );
      expect(res.status, subject).toBe(400);
      expect(res.error?.detail).toBe(MSG_TEMPLATES.unsafeSyntax);
    }
    expect(await templatesOf(c.id)).toEqual(before);
  });

  it("still saves variables and the newsletter condition between tags, as the defaults use them", async () => {
    const c = await createCongress(db());
    for (const definition of Object.values(MAIL_CATALOGUE)) {
      const draft = {
        name: definition.name,
        subject: definition.defaultSubject,
        content: definition.defaultContent,
      };
      // a mail no event sends has no event's template; its preview applies the same rule
      const res = definition.perEvent
        ? await trpcAdminMutation("admin.mailTemplates.save", templateForm({ ...draft, congress: c.id }))
        : await trpcAdminMutation("admin.mailTemplates.preview", draft);
      expect(res.status, `${definition.name}: ${res.body}`).toBe(200);
    }
    const conditional = await trpcAdminMutation(
      "admin.mailTemplates.save",
      templateForm({
        congress: c.id,
        content:
          '<p>{{#if newsletter}}Ja{{else}}Nein{{/if}}</p>{{#unless newsletter}}<p><a href="{{url}}">Abonnieren</a></p>{{/unless}}',
      }),
    );
    expect(conditional.status, conditional.body).toBe(200);
  });

  it("sends and previews only sanitised HTML, also for a polyglot stored before the rule", async () => {
    const c = await createCongress(db());
    for (const [index, content] of POLYGLOTS.slice(0, 6).entries()) {
      await db().delete(mailTemplates).where(eq(mailTemplates.congressId, c.id));
      await storeTemplate("participation-confirmation", c.id, `Alt ${index}`, content);
      const mail = await deliver("participation-confirmation", c.id, { newsletter: index % 2 === 0 });
      expect(liveMarkupIn(mail.html), content).toEqual([]);
    }
  }, 60_000);

  it("the preview shows the HTML that is sent", async () => {
    const content =
      '<p>Hallo {{userFullName}}</p><p><a href="{{url}}" class="button">Los</a></p>{{#if newsletter}}<p>NL</p>{{/if}}';
    const subject = `Vorschau ${unique()}`;
    const preview = await trpcAdminMutation("admin.mailTemplates.preview", {
      name: "registration-confirmation",
      subject,
      content,
    });
    expect(preview.status, preview.body).toBe(200);
    const sent = await trpcAdminMutation("admin.mailTemplates.sendTest", {
      name: "registration-confirmation",
      subject,
      content,
    });
    expect(sent.status, sent.body).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.subject === subject);
    const body = (html: string) => html.slice(html.indexOf("Hallo"), html.indexOf("NL</p>") + 6);
    expect(body(mail.html)).toBe(body(preview.data.html));
    expect(body(preview.data.html)).toContain(
      '<a href="http://app.test/confirm-mail/1/beispiel" class="button">Los</a>',
    );
  }, 30_000);
});
