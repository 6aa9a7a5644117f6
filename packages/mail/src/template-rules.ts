import Handlebars from "handlebars";
import type { StoredTemplate } from "./render";

type Node = hbs.AST.Node;
type Statement = hbs.AST.Statement;

export type TemplateProblem = { kind: "syntax" | "not-allowed"; message: string };

// `userFullName`, `congress.title`: no `this`, `..`, `@data`, literals or helpers with arguments
const VARIABLE = /^(?!this\b)[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const CONDITIONS = new Set(["if", "unless"]);

const stripped = (...flags: (hbs.AST.StripFlags | undefined)[]) => flags.some((f) => f?.open || f?.close);

function isVariable(node: Node | undefined): boolean {
  const path = node as hbs.AST.PathExpression | undefined;
  return path?.type === "PathExpression" && !path.data && path.depth === 0 && VARIABLE.test(path.original);
}

/** `{{name}}`: escaped, one plain variable, no arguments and no whitespace control. */
function isPlainVariable(node: hbs.AST.MustacheStatement): boolean {
  return (
    node.escaped &&
    isVariable(node.path) &&
    node.params.length === 0 &&
    !node.hash?.pairs?.length &&
    !stripped(node.strip)
  );
}

/** `{{#if name}} … {{else}} … {{/if}}` and `{{#unless name}}`, on one plain variable. */
function isCondition(node: hbs.AST.BlockStatement): boolean {
  const block = node as hbs.AST.BlockStatement & { blockParams?: string[] };
  return (
    CONDITIONS.has(block.path.original) &&
    block.params.length === 1 &&
    isVariable(block.params[0]) &&
    !block.hash?.pairs?.length &&
    !block.blockParams?.length &&
    !stripped(block.openStrip, block.inverseStrip, block.closeStrip)
  );
}

/**
 * The statements a template may hold: text, `{{variable}}` and the newsletter-style conditions. Comments,
 * partials, raw blocks, decorators, `{{{…}}}`, `{{&…}}`, `~` and every other helper are refused: each can
 * make the rendered HTML differ from the HTML the sanitiser read (a comment or skipped branch that swallows
 * a closing quote reopens an attribute), or output text unescaped.
 */
function allowed(statements: Statement[], conditions: boolean): boolean {
  return statements.every((node) => {
    if (node.type === "ContentStatement") {
      return true;
    }
    if (node.type === "MustacheStatement") {
      return isPlainVariable(node as hbs.AST.MustacheStatement);
    }
    if (node.type === "BlockStatement" && conditions) {
      const block = node as hbs.AST.BlockStatement;
      return (
        isCondition(block) &&
        allowed(block.program?.body ?? [], true) &&
        allowed(block.inverse?.body ?? [], true)
      );
    }
    return false;
  });
}

function parse(source: string): hbs.AST.Program | TemplateProblem {
  try {
    return Handlebars.parse(source);
  } catch (error) {
    return { kind: "syntax", message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Why a template breaks the rule above, or null. With `html`, the content is the sanitised HTML that is
 * stored: there a `<` always opens a tag and the next `>` closes it, and a tag (its attributes) may hold
 * only text and `{{variable}}`; a condition there could join an attribute with the text after the tag.
 */
export function templateProblem(
  template: StoredTemplate,
  options: { html: boolean },
): TemplateProblem | null {
  for (const source of [template.subject, template.content]) {
    const ast = parse(source);
    if ("kind" in ast) {
      return ast;
    }
    if (!allowed(ast.body, true)) {
      return { kind: "not-allowed", message: "template uses more than variables and conditions" };
    }
  }
  if (options.html) {
    for (const [tag] of template.content.matchAll(/<[^>]*>/g)) {
      const ast = tag.includes("{{") ? parse(tag) : null;
      if (ast && ("kind" in ast || !allowed(ast.body, false))) {
        return { kind: "not-allowed", message: `condition or comment inside a tag: ${tag.slice(0, 80)}` };
      }
    }
  }
  return null;
}
