import { describe, expect, it } from "vitest";
import { z } from "zod";
import { de, en } from "zod/locales";
import * as core from "zod/v4/core";
import * as shared from "./index";

/**
 * ADR 0088: every check of every exported shared schema says in product text what is wrong. Zod's own
 * texts ("Zu klein: erwartet, dass number >0 ist", "Ungültige Eingabe: erwartet Zahl, erhalten NaN") never
 * reach a form. The walk visits each schema of the package's exports and every schema inside it, makes the
 * issue each type and each check can raise, and asks zod which message it would get: a schema's own issues
 * their schema's text, a check's issues the check's own text (a schema's text as the fallback of its checks
 * is how "Bitte geben Sie einen Titel ein." came to stand under a title that was too long). No text at all
 * (zod's locale answers) and a text equal to the German or English locale's both fail.
 */

type Issue = core.$ZodRawIssue;
// biome-ignore lint/suspicious/noExplicitAny: the walk reads zod's internal definitions of any kind
type Def = any;
type Node = core.$ZodType;
type Check = core.$ZodCheck;

const LOCALE = "\u0000zod-locale\u0000";
const locales = [de().localeError, en().localeError];

/** The issues a schema raises itself, by its type (its children raise theirs). */
function ownIssues(node: Node): Issue[] {
  const def: Def = node._zod.def;
  const type = (expected: string, input: unknown): Issue[] => [
    { code: "invalid_type", expected: expected as never, input, inst: node },
  ];
  switch (def.type) {
    case "string":
      return [
        ...type("string", 1),
        ...(def.format
          ? [{ code: "invalid_format", format: def.format, input: "x", inst: node } as Issue]
          : []),
      ];
    case "number":
      return [...type("number", Number.NaN), ...type("number", "abc")];
    case "boolean":
    case "null":
    case "date":
    case "bigint":
    case "array":
      return type(def.type, Symbol("x"));
    case "object":
      return [
        ...type("object", "x"),
        ...(def.catchall?._zod.def.type === "never"
          ? [{ code: "unrecognized_keys", keys: ["x"], input: {}, inst: node } as Issue]
          : []),
      ];
    case "record":
      return [
        ...type("record", "x"),
        { code: "invalid_key", origin: "record", issues: [], input: "x", inst: node } as Issue,
      ];
    case "literal":
      return [{ code: "invalid_value", values: def.values, input: "x", inst: node }];
    case "enum":
      return [{ code: "invalid_value", values: Object.values(def.entries), input: "x", inst: node }];
    case "union":
      return [{ code: "invalid_union", errors: [], input: "x", inst: node }];
    case "custom":
      return [{ code: "custom", input: "x", inst: node }];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "pipe":
    case "transform":
    case "unknown":
    case "readonly":
      return [];
    default:
      throw new Error(
        `the walk does not know zod's type "${def.type}": teach it the issues that type raises`,
      );
  }
}

/** The issues a check raises, on its schema (`origin` string or array by that). */
function checkIssues(check: Check, node: Node): Issue[] {
  const def: Def = check._zod.def;
  const origin = (node._zod.def as Def).type === "array" ? "array" : "string";
  const at = { inst: check, input: "x" };
  switch (def.check) {
    case "min_length":
      return [{ code: "too_small", origin, minimum: def.minimum, inclusive: true, ...at }];
    case "max_length":
      return [{ code: "too_big", origin, maximum: def.maximum, inclusive: true, ...at }];
    case "greater_than":
      return [{ code: "too_small", origin: "number", minimum: def.value, inclusive: def.inclusive, ...at }];
    case "less_than":
      return [{ code: "too_big", origin: "number", maximum: def.value, inclusive: def.inclusive, ...at }];
    case "number_format":
      return [
        { code: "invalid_type", expected: "int", received: "number", ...at } as Issue,
        { code: "too_big", origin: "number", maximum: Number.MAX_SAFE_INTEGER, inclusive: true, ...at },
      ];
    case "string_format":
      return [{ code: "invalid_format", format: def.format, pattern: def.pattern, ...at } as Issue];
    case "overwrite":
      return [];
    case "custom":
      // `.refine(fn, message)` is a schema of its own with the message; `.superRefine` adds issues with
      // their messages in its code, which no walk can see (the tests of those schemas read them)
      return def.type === "custom" ? [{ code: "custom", ...at }] : [];
    default:
      throw new Error(`the walk does not know zod's check "${def.check}": teach it the issues it raises`);
  }
}

/** The schemas a schema holds. */
function children(node: Node): Node[] {
  const def: Def = node._zod.def;
  switch (def.type) {
    case "object":
      return [...Object.values(def.shape as Record<string, Node>), ...(def.catchall ? [def.catchall] : [])];
    case "array":
      return [def.element];
    case "record":
      return [def.keyType, def.valueType];
    case "union":
      return def.options;
    case "pipe":
      return [def.in, def.out];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
      return [def.innerType];
    default:
      return [];
  }
}

/** The message zod gives `issue` without its locale, or LOCALE when only the locale would say something. */
function messageOf(issue: Issue, schema: Node): string {
  const withSchema = { ...issue, schema } as Issue;
  return core.util.finalizeIssue(withSchema, undefined, { localeError: () => LOCALE } as never).message;
}

interface Finding {
  at: string;
  code: string;
  message: string;
}

function walk(node: Node, at: string, seen: Set<Node>, findings: Finding[]): void {
  if (seen.has(node)) {
    return;
  }
  seen.add(node);
  const def: Def = node._zod.def;
  const issues: Array<[Issue, Node]> = [
    ...ownIssues(node).map((issue): [Issue, Node] => [issue, node]),
    ...((def.checks ?? []) as Check[]).flatMap((check) =>
      checkIssues(check, node).map((issue): [Issue, Node] => [issue, check as unknown as Node]),
    ),
  ];
  for (const [issue, schema] of issues) {
    const message = messageOf(issue, schema);
    const fromLocale = locales.some((locale) => {
      const text = locale(issue as never);
      return (typeof text === "string" ? text : text?.message) === message;
    });
    if (message === LOCALE || message === "Invalid input" || fromLocale) {
      findings.push({
        at,
        code: issue.code ?? "?",
        message: message === LOCALE ? "(zod's locale)" : message,
      });
    }
  }
  for (const [index, child] of children(node).entries()) {
    const key = def.type === "object" ? (Object.keys(def.shape)[index] ?? "*") : `${def.type}[${index}]`;
    walk(child, `${at}.${key}`, seen, findings);
  }
}

const exported = Object.entries(shared as Record<string, unknown>).filter(
  (entry): entry is [string, Node] => entry[1] instanceof z.ZodType,
);

describe("product text in every shared schema (ADR 0088)", () => {
  it("finds the package's schemas", () => {
    expect(exported.map(([name]) => name)).toEqual(
      expect.arrayContaining(["ZCongressInput", "ZPackageInput", "ZContentInput", "ZRegisterInput", "ZId"]),
    );
  });

  it.each(exported)("%s says what is wrong in its own words at every check", (name, schema) => {
    const findings: Finding[] = [];
    walk(schema, name, new Set(), findings);
    expect(findings).toEqual([]);
  });

  it("catches a check without text (the walk itself)", () => {
    const findings: Finding[] = [];
    const probe = z.object({ title: z.string({ error: "Text" }).max(3) }, { error: "Form" });
    walk(probe, "probe", new Set(), findings);
    expect(findings).toEqual([{ at: "probe.title", code: "too_big", message: "(zod's locale)" }]);
  });
});
