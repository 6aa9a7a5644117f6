import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { de } from "zod/locales";
import type * as core from "zod/v4/core";
import * as shared from "./index";

/**
 * ADR 0094: the walk of schema-messages.test.ts asks zod which text each check would give; this sweep parses
 * real bad input through every exported schema, with zod's locale replaced by a marker, so a message that
 * only the locale would give (a check without text, an issue a `superRefine` or `transform` adds without
 * one, "Zu groß: erwartet, dass string <=100 Zeichen hat", "Ungültige Eingabe: erwartet Zahl, erhalten NaN")
 * fails here wherever it comes from. The inputs: each field, nested ones too, set to each of a list of bad
 * values (wrong types, NaN, texts far too long, empty ones, negative and broken numbers, odd dates).
 */

// biome-ignore lint/suspicious/noExplicitAny: the sweep reads zod's internal definitions of any kind
type Def = any;
type Node = core.$ZodType;

const MARKER = "\u0000zod-locale\u0000";
const LONG = "x".repeat(300_000);
const BAD: unknown[] = [
  undefined,
  null,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -1,
  0,
  1.5,
  2 ** 60,
  "",
  " ",
  "abc",
  "1.5",
  "-3",
  LONG,
  "31.02.2027",
  "2027-02-31",
  "javascript:alert(1)",
  true,
  "true",
  {},
  { id: "x" },
  { date: "x" },
  [],
  ["x"],
  Array.from({ length: 1000 }, (_, i) => i + 1),
  Symbol("x"),
];

/** Bad values for a schema and, inside objects and lists, for each of its parts. */
function inputs(node: Node, depth: number): unknown[] {
  const def: Def = node._zod.def;
  if (depth > 5) {
    return BAD;
  }
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, Node>;
      const perField = Object.entries(shape).flatMap(([key, child]) =>
        inputs(child, depth + 1).map((value) => ({ [key]: value })),
      );
      return [...BAD, ...perField];
    }
    case "array":
      return [...BAD, ...inputs(def.element, depth + 1).map((value) => [value])];
    case "record":
      return [...BAD, ...inputs(def.valueType, depth + 1).map((value) => ({ key: value, "": value }))];
    case "union":
      return [...BAD, ...(def.options as Node[]).flatMap((option) => inputs(option, depth + 1))];
    case "pipe":
      return inputs(def.in, depth);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
      return inputs(def.innerType, depth);
    default:
      return BAD;
  }
}

const exported = Object.entries(shared as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

/** Where (path and code) a refusal of `schema` over the bad inputs gets a message only zod's locale gives. */
function localeMessages(schema: z.ZodType): string[] {
  const found = new Set<string>();
  for (const input of inputs(schema as unknown as Node, 0)) {
    for (const issue of schema.safeParse(input).error?.issues ?? []) {
      if (issue.message === MARKER || issue.message === "Invalid input") {
        found.add(`${issue.path.join(".") || "(root)"}: ${issue.code}`);
      }
    }
  }
  return [...found].sort();
}

describe("no refusal of a shared schema speaks zod's locale (ADR 0094)", () => {
  beforeAll(() => {
    z.config({ localeError: () => MARKER });
  });
  afterAll(() => {
    z.config(de());
  });

  it.each(exported)("%s, parsing bad values into each field", (_name, schema) => {
    expect(localeMessages(schema)).toEqual([]);
  });

  it("catches what only the locale would say (the sweep itself)", () => {
    // a schema's own text also stands for its checks at run time (a too-long title said "Bitte geben Sie
    // einen Titel ein."): the walk in schema-messages.test.ts finds those; this sweep finds the rest
    const probe = z.object(
      {
        title: z.string().max(3),
        count: z.number({ error: "Zahl" }),
        day: z.string({ error: "Tag" }).transform((v, ctx) => {
          ctx.addIssue({ code: "custom" });
          return v;
        }),
        note: z.string().superRefine((v, ctx) => {
          if (v === "abc") {
            ctx.addIssue({ code: "custom" });
          }
        }),
      },
      { error: "Form" },
    );
    // `day`'s own text does not reach the issue its transform adds without one
    expect(localeMessages(probe)).toEqual([
      "day: custom",
      "note: custom",
      "note: invalid_type",
      "title: invalid_type",
      "title: too_big",
    ]);
  });
});
