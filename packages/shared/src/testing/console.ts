/**
 * The console guard for Vitest (STYLE.md: a `console.error` during a test is a failure unless the test expects
 * it). `console-setup.ts` installs it in every package's Vitest config (`console-setup-browser.ts` in the web
 * app's component tests, which run in a browser without `node:util`); a test that expects output declares it
 * with `expectConsole`. The state lives on `globalThis`, so a worker that evaluates this module once per test
 * file still wraps the console only once and every copy of the module sees the same records.
 */

export type ConsoleLevel = "error" | "warn";

interface Logged {
  level: ConsoleLevel;
  text: string;
  /** the first stack frame outside this file: where the message came from */
  origin: string | undefined;
}

interface Expected {
  level: ConsoleLevel;
  pattern: RegExp | string;
  seen: number;
}

interface GuardState {
  logged: Logged[];
  expected: Expected[];
}

const KEY = Symbol.for("@app/shared/testing/console");
const LEVELS: readonly ConsoleLevel[] = ["error", "warn"];

function state(): GuardState {
  const holder = globalThis as { [KEY]?: GuardState };
  holder[KEY] ??= { logged: [], expected: [] };
  return holder[KEY];
}

function matches(pattern: RegExp | string, text: string): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

function originOf(stack: string | undefined): string | undefined {
  return stack
    ?.split("\n")
    .slice(1)
    .map((line) => line.trim())
    .find((line) => !/testing\/console\.ts:/.test(line));
}

/**
 * Declares that the running test logs a `console.error`/`console.warn` whose text matches `pattern`. Matching
 * messages are not printed; the test fails if none comes, so a declaration cannot outlive the output it was
 * written for. Call it in the test (or in a `beforeEach` for every test of a file); it ends with the test.
 */
export function expectConsole(level: ConsoleLevel, pattern: RegExp | string): void {
  state().expected.push({ level, pattern, seen: 0 });
}

/** How the console turns its arguments into one text: `util.format` in Node, `formatInBrowser` in a browser. */
export type ConsoleFormat = (...args: unknown[]) => string;

/** Wraps console.error and console.warn once per worker; idempotent. */
export function installConsoleGuard(format: ConsoleFormat): void {
  const target = console as Console & { [KEY]?: true };
  if (target[KEY]) {
    return;
  }
  target[KEY] = true;
  for (const level of LEVELS) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const text = format(...args);
      const current = state();
      const expectation = current.expected.find((e) => e.level === level && matches(e.pattern, text));
      if (expectation) {
        expectation.seen++;
        return;
      }
      current.logged.push({ level, text, origin: originOf(new Error().stack) });
      original(...args);
    };
  }
}

/** One argument as text: a string as it is, an error with its stack, anything else as JSON where it can be. */
function show(value: unknown): string {
  if (typeof value === "string") {
    return value;
  }
  if (value instanceof Error) {
    return value.stack ?? `${value.name}: ${value.message}`;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * `util.format` for a browser: the placeholders of a first string argument (`%s`, `%d`, `%o`, ...; `%c`
 * takes its CSS and prints nothing) filled with the arguments that follow, the rest joined with spaces.
 */
export const formatInBrowser: ConsoleFormat = (...args) => {
  const [first, ...rest] = args;
  if (typeof first !== "string") {
    return args.map(show).join(" ");
  }
  const text = first.replace(/%[sdifoOjc%]/g, (token) => {
    if (token === "%%") {
      return "%";
    }
    if (rest.length === 0) {
      return token;
    }
    const value = rest.shift();
    return token === "%c" ? "" : show(value);
  });
  return [text, ...rest.map(show)].join(" ");
};

/**
 * What went wrong since the last call (unexpected messages, expectations nobody met), as one message for the
 * test's failure, or undefined; clears the records either way.
 */
export function takeConsoleFailure(): string | undefined {
  const current = state();
  const problems = [
    ...current.logged.map(
      ({ level, text, origin }) => `console.${level}: ${text}${origin ? `\n      ${origin}` : ""}`,
    ),
    ...current.expected
      .filter((e) => e.seen === 0)
      .map(
        (e) =>
          `expectConsole("${e.level}", ${typeof e.pattern === "string" ? JSON.stringify(e.pattern) : String(e.pattern)}) was declared, but no such message came`,
      ),
  ];
  current.logged = [];
  current.expected = [];
  if (problems.length === 0) {
    return undefined;
  }
  return [
    "The console guard found output the test did not declare (see packages/shared/src/testing/console.ts):",
    ...problems.map((p) => `  - ${p}`),
  ].join("\n");
}
