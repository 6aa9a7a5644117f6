import { render } from "@react-email/render";
import Handlebars from "handlebars";
import { createElement } from "react";
import { MailLayout } from "./layout";
import { sanitizeMailHtml } from "./sanitize";

export interface StoredTemplate {
  subject: string;
  content: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

// An isolated instance: no helpers or partials registered elsewhere can change how mails render.
const hbs = Handlebars.create();

// Only `if` and `unless` are allowed: templates are data, not code. Unknown variables render empty here;
// `unknownVariables` reports them to the admin when a template is saved.
const OPTIONS = { knownHelpersOnly: true, knownHelpers: { if: true, unless: true } } as const;
const RUNTIME = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false } as const;

/**
 * Every string among the variables HTML-escaped once. The content is then rendered without further
 * escaping, so `{{name}}`, `{{{name}}}` and `{{& name}}` all give the same escaped text: a template cannot
 * ask for a visitor's name (or an event title) as raw markup.
 */
function escaped(value: unknown): unknown {
  if (typeof value === "string") {
    return hbs.Utils.escapeExpression(value);
  }
  if (Array.isArray(value)) {
    return value.map(escaped);
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, escaped(v)]));
  }
  return value;
}

/** Renders subject and content with the variables (HTML-escaped) inside the mail layout. */
export async function renderMail(
  template: StoredTemplate,
  variables: Record<string, unknown>,
): Promise<RenderedMail> {
  // the subject is a plain-text header: no HTML escaping, no line breaks (header injection)
  const subject = hbs
    .compile(template.subject, { ...OPTIONS, noEscape: true })(variables, RUNTIME)
    .replace(/\s+/g, " ")
    .trim();
  // sanitised after rendering too: a template stored before the rules of `templateProblem` (or one that
  // slipped past them) cannot send markup the sanitiser never saw
  const contentHtml = sanitizeMailHtml(
    hbs.compile(template.content, { ...OPTIONS, noEscape: true })(escaped(variables), RUNTIME),
  );
  const element = createElement(MailLayout, { subject, contentHtml });
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject, html, text };
}

/**
 * Why a template cannot be rendered (a broken `{{…}}`, an unknown helper, a partial, a NUL character), or
 * null. Checked before a template is saved, previewed or sent, so a broken template never reaches the mail
 * job. The trial run without variables finds what only fails at render time (partials).
 */
export function templateError(template: StoredTemplate): string | null {
  for (const source of [template.subject, template.content]) {
    try {
      hbs.compile(source, OPTIONS)({}, RUNTIME);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  return null;
}

/** Variables a template uses that the mail does not offer (reported to the admin when saving). */
export function unknownVariables(template: StoredTemplate, offered: string[]): string[] {
  const used = new Set<string>();
  for (const source of [template.subject, template.content]) {
    for (const match of source.matchAll(
      /\{\{\{?\s*(?:#if|#unless|\/if|\/unless|else)?\s*([A-Za-z_][\w.]*)?\s*\}?\}\}/g,
    )) {
      const name = match[1];
      if (name && !["if", "unless", "else"].includes(name)) {
        used.add(name.split(".")[0] ?? name);
      }
    }
  }
  return [...used].filter((name) => !offered.includes(name)).sort();
}
