/**
 * The end-to-end tests sign in through one fixture (`signIn` in apps/web/e2e/fixtures.ts), which mints the
 * session a login would start; the login form itself, an argon2id verification on the cores that run
 * everything else, is used only where the login is what a test is about. Every TypeScript file of
 * apps/web/e2e other than fixtures.ts is read as a syntax tree (comments do not count):
 *
 * - it declares no function named like a login helper (`login…`, `logIn…`, `signIn…`: `loginAs`,
 *   `signInAsAdmin`; a function declaration or method, or a name bound to a function), whatever it does
 *   inside: a file that needs a signed-in browser asks the fixture for one;
 * - it reaches the login form (a call of the fixtures' `login`, under whatever name it was imported, or the
 *   form's accessible name "Ich habe bereits ein Konto") only in the files of LOGIN_FORM, at most as often
 *   as listed there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const e2eDir = fileURLToPath(new URL("../apps/web/e2e/", import.meta.url));

/** The one place that may sign in without the form, and that holds the form's helper. */
const FIXTURES = "fixtures.ts";

/**
 * The files whose tests are about the login, with how many places in each reach the form. A new test that
 * only needs a signed-in browser takes the `signIn` fixture instead of raising a number here.
 */
const LOGIN_FORM: Record<string, { uses: number; why: string }> = {
  "auth.spec.ts": { uses: 9, why: "the login form: passwords, refusals, the congressId/showVideo rules" },
  "sign-in-link.spec.ts": { uses: 2, why: "a login refused by the limits, then the mailed link" },
  "admin-2fa.spec.ts": { uses: 6, why: "the two-factor step after the password" },
  "login-return.spec.ts": {
    uses: 6,
    why: "the return after a login: one per kind of guard, after a registration (ADR 0133), and the next login after Abmelden",
  },
  "keyboard.spec.ts": { uses: 2, why: "the login form with the keyboard, its errors tied to the fields" },
  "privacy.spec.ts": { uses: 1, why: "the login of a deleted account is refused" },
};

/** `login`, `logIn`, `signIn`, `sign_in`, `loginAs`, `LoginHelper`, …; not `logins`, `signedIn`, `signInfo`. */
const HELPER_NAME = /^(?:[lL]og|[sS]ign)_?[iI]n(?![a-z])/;
const FORM_NAME = "Ich habe bereits ein Konto";

interface Found {
  helpers: string[];
  formUses: string[];
}

/** The name of a function the node declares: a function or method, or a name bound to a function. */
function functionName(node: ts.Node): string | undefined {
  let name: ts.Node | undefined;
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) {
    name = node.name;
  } else if (
    (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) &&
    node.initializer &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  ) {
    name = node.name;
  }
  return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

/** The local names of the fixtures' form login in an import (`import { login as x } from "./fixtures"`). */
function formLoginNames(node: ts.ImportDeclaration): string[] {
  const bindings = node.importClause?.namedBindings;
  if (
    !ts.isStringLiteral(node.moduleSpecifier) ||
    !/^\.\/fixtures(\.ts)?$/.test(node.moduleSpecifier.text) ||
    !bindings ||
    !ts.isNamedImports(bindings)
  ) {
    return [];
  }
  return bindings.elements
    .filter((specifier) => (specifier.propertyName ?? specifier.name).text === "login")
    .map((specifier) => specifier.name.text);
}

function scan(file: string, text: string): Found {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const found: Found = { helpers: [], formUses: [] };
  const formLogin = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      for (const name of formLoginNames(node)) {
        formLogin.add(name);
      }
      return;
    }
    const name = functionName(node);
    if (name && HELPER_NAME.test(name)) {
      found.helpers.push(`${at(node)} ${name}`);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      formLogin.has(node.expression.text)
    ) {
      found.formUses.push(`${at(node)} ${node.expression.text}(…)`);
    }
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      node.text.includes(FORM_NAME)
    ) {
      found.formUses.push(`${at(node)} "${FORM_NAME}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = readdirSync(e2eDir).filter((name) => name.endsWith(".ts") && name !== FIXTURES);
const found = new Map(files.map((file) => [file, scan(file, readFileSync(join(e2eDir, file), "utf8"))]));

describe("e2e tests sign in through the fixture", () => {
  it("reads the e2e folder", () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain("auth.spec.ts");
  });

  it("no e2e file but fixtures.ts declares a login helper: tests take the `signIn` fixture", () => {
    expect([...found.values()].flatMap((f) => f.helpers)).toEqual([]);
  });

  it("the login form is used only where the login is the subject (LOGIN_FORM), no more often than listed", () => {
    const over: string[] = [];
    for (const [file, { formUses }] of found) {
      const allowed = LOGIN_FORM[file]?.uses ?? 0;
      if (formUses.length > allowed) {
        over.push(
          `${file}: ${formUses.length} uses of the login form, ${allowed} allowed: ${formUses.join(", ")}`,
        );
      }
    }
    expect(over).toEqual([]);
  });

  it("every file of LOGIN_FORM exists and still uses the form", () => {
    for (const file of Object.keys(LOGIN_FORM)) {
      expect(found.get(file)?.formUses.length ?? 0, file).toBeGreaterThan(0);
    }
  });

  it("the rule sees helpers and form uses however they are written, and nothing else", () => {
    const probe = scan(
      "probe.ts",
      `import { login as enter, test } from "./fixtures";
      // a comment may say login(page) and "Ich habe bereits ein Konto"
      async function loginAs(page) { await enter(page, "a", "b"); }
      const signInAsAdmin = async (page) => page.getByRole("region", { name: \`Ich habe bereits ein Konto\` });
      const helpers = { logIn: function () {}, signIn(page) {} };
      async function signedIn(page) {}
      const logins = 3;
      const loginAddress = new URL("/login", "http://x");
      test("x", async ({ page, signIn }) => { await signIn(user); });`,
    );
    expect(probe.helpers).toEqual([
      "probe.ts:3 loginAs",
      "probe.ts:4 signInAsAdmin",
      "probe.ts:5 logIn",
      "probe.ts:5 signIn",
    ]);
    expect(probe.formUses).toEqual(["probe.ts:3 enter(…)", `probe.ts:4 "${FORM_NAME}"`]);
  });
});
