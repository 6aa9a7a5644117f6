import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * A count says its noun in the singular or the plural, "1 Bestellung" and "2 Bestellungen", through
 * `countOf` (@app/shared, text.ts): never "1 Bestellung(en)". This reads every text of the sources a
 * person sees (string and template literals, JSX text) and names each parenthesised plural ending.
 */
const root = resolve(import.meta.dirname, "..");
const SOURCE_DIRS = ["apps/web/src", "apps/api/src", ...packageSources()];

function packageSources(): string[] {
  return readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `packages/${entry.name}/src`);
}

/** "Bestellung(en)", "Person(en)", "Vorlage(n)", "Video(s)", "Tag(e)", "Teilnehmer(n)"; not "http(s)". */
const PARENTHESISED_PLURAL = /[A-Za-zÄÖÜäöüß](?<!\bhttp)\((?:e|en|er|n|ne|nen|s)\)(?![\w(])/;

/** The texts of one file: literals and JSX text, without SQL (`sql\`…\``, where `min(n)` is code). */
function textsOf(fileName: string, source: string): Array<{ line: number; text: string }> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  const texts: Array<{ line: number; text: string }> = [];
  const add = (node: ts.Node, text: string) =>
    texts.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(file) === "sql") {
      return;
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateLiteralToken(node)
    ) {
      add(node, node.text);
    } else if (ts.isJsxText(node)) {
      add(node, node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return texts;
}

const scriptKind = (fileName: string) => (fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

function parenthesisedPlurals(fileName: string, source: string): string[] {
  // parsing is what takes time: only a file with the pattern somewhere (code too) is read closely
  if (!PARENTHESISED_PLURAL.test(source)) {
    return [];
  }
  return textsOf(fileName, source)
    .filter(({ text }) => PARENTHESISED_PLURAL.test(text))
    .map(({ line, text }) => `${fileName}:${line}: ${text.trim()}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .map((f) => join(root, dir, f))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith("routeTree.gen.ts"));
}

describe("German plurals", () => {
  // reading every file takes seconds on a busy machine
  it("no text of the web app, the API or the packages counts with a parenthesised plural", {
    timeout: 60_000,
  }, () => {
    const files = SOURCE_DIRS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((f) => parenthesisedPlurals(relative(root, f), readFileSync(f, "utf8")));
    expect(found).toEqual([]);
  });

  it("finds them in strings, templates and JSX text, not in code, comments, SQL or http(s)", () => {
    const sample = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      "const a = `${count} Bestellung(en) angelegt`;",
      'const b = "Die Vorlage(n) wurde(n) kopiert";',
      "const c = <p>{n} Video(s) gefunden</p>;",
      "const d = 'Ihre Datei(en): ' + names;",
      "seen.add(s); encodeURIComponent(String(s));",
      "// 1 Bestellung(en) in a comment",
      "const e = sql`SELECT min(n) AS first`;",
      'const f = "eine http(s)-Adresse";',
      'const g = "1 Bestellung und 2 Bestellungen";',
    ].join("\n");
    expect(parenthesisedPlurals("x.tsx", sample).map((f) => f.split(":")[1])).toEqual(["1", "2", "3", "4"]);
  });
});
