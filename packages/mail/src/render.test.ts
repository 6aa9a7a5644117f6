import { describe, expect, it } from "vitest";
import { MAIL_CATALOGUE } from "./catalogue";
import { renderMail, unknownVariables } from "./render";
import { templateProblem } from "./template-rules";

describe("renderMail", () => {
  it("fills variables, escapes their HTML and keeps the layout", async () => {
    const mail = await renderMail(
      {
        subject: "Hallo {{userFullName}}",
        content: '<p>Hallo {{userFullName}}</p><a href="{{url}}">Los</a>',
      },
      { userFullName: "<script>alert(1)</script> Erika", url: "https://example.com/a?b=1&c=2" },
    );
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Erika");
    expect(mail.html).not.toContain("<script>alert(1)");
    // entity-encoded attribute value (as the sanitiser writes it after rendering); a browser or mail
    // client reads https://example.com/a?b=1&c=2
    expect(mail.html).toContain('href="https://example.com/a?b=1&amp;c=2"');
    expect(mail.html).toContain("Kongress-Plattform");
    expect(mail.subject).toBe("Hallo <script>alert(1)</script> Erika");
    expect(mail.text).toContain("Hallo");
  });

  it("keeps subjects on one line", async () => {
    const mail = await renderMail({ subject: "A {{x}}", content: "" }, { x: "b\r\nBcc: evil@example.com" });
    expect(mail.subject).toBe("A b Bcc: evil@example.com");
  });

  it("supports the newsletter conditional", async () => {
    const template = { subject: "x", content: "{{#if newsletter}}<p>NL-JA</p>{{else}}<p>NL-NEIN</p>{{/if}}" };
    expect((await renderMail(template, { newsletter: true })).html).toContain("NL-JA");
    expect((await renderMail(template, { newsletter: false })).html).toContain("NL-NEIN");
  });

  it("refuses unknown helpers and prototype access", async () => {
    await expect(renderMail({ subject: "x", content: "{{lookupSecret url}}" }, { url: "x" })).rejects.toThrow(
      /unknown helper/,
    );
    const mail = await renderMail({ subject: "x", content: "[{{constructor.name}}]" }, {});
    expect(mail.html).toContain("[]");
  });

  it("renders every catalogue default with its sample data", async () => {
    for (const definition of Object.values(MAIL_CATALOGUE)) {
      const mail = await renderMail(
        { subject: definition.defaultSubject, content: definition.defaultContent },
        definition.sample,
      );
      expect(mail.subject).not.toMatch(/\{\{/);
      expect(mail.html).not.toMatch(/\{\{/);
      expect(
        unknownVariables(
          { subject: definition.defaultSubject, content: definition.defaultContent },
          Object.keys(definition.variables),
        ),
      ).toEqual([]);
      const template = { subject: definition.defaultSubject, content: definition.defaultContent };
      expect(templateProblem(template, { html: true }), definition.name).toBeNull();
    }
  });
});

describe("unknownVariables", () => {
  it("lists variables the mail does not offer", () => {
    expect(
      unknownVariables(
        { subject: "{{congressTitle}}", content: "{{#if newsletter}}{{foo}}{{/if}} {{url}}" },
        ["url", "newsletter"],
      ),
    ).toEqual(["congressTitle", "foo"]);
  });
});
