import type { FastifyRequest, FastifyServerOptions } from "fastify";

type LoggerOptions = Exclude<FastifyServerOptions["logger"], boolean | undefined>;

/**
 * Personal data never reaches the logs (DSGVO): e-mail addresses keep only their domain, tokens and
 * passwords are never written, names and addresses are redacted by key. Every logger of the API is made
 * from `privateLoggerOptions` (app.ts; server.ts and the jobs log through the app's logger).
 */

/** An e-mail address is found from its `@` (or URL-encoded `%40`): see maskEmails. */
const AT = /@|%40/g;
const LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;
const DOMAIN = /(?:[\p{L}\p{N}-]{1,63}\.){1,8}\p{L}{2,63}/uy;

/**
 * Paths that carry a token or link hash (web routes under apps/web/src/routes and REST routes with a
 * `:token`), or a certificate's verification code (`/bescheinigung/<code>`, ADR 0117: whoever has it
 * reads the certificate): everything after the prefix is dropped, unless it is a route pattern (`/:token`).
 * The lookup the verification page makes (`certificate.verify`) carries the code in `?input=`, masked as
 * every query is.
 */
const TOKEN_PATH =
  /(\/api\/auth\/resetPassword\/(?:validate|reset)|(?<!\/auth)\/resetPassword|\/confirm-mail|\/migration\/set-password|\/login-link|\/bescheinigung)\/(?!:)[^\s"'?#\\]+/g;

/**
 * a query string after a path (tRPC GET calls carry their whole input in `?input=`); the path is taken
 * from its start only, so a long path is read once, not once per slash
 */
const QUERY = /(?<![\w\-.~%/,])(\/[\w\-.~%/,]*)\?([^\s"'#\\]*)/g;
/** query parameters whose values say nothing about a person and help reading the logs */
const PLAIN_QUERY_KEYS = new Set(["batch", "page"]);

/** Keys whose values are secrets or personal data wherever they appear in a logged object. */
const SECRET_KEY =
  /pass(word)?|token|secret|hash|cookie|authorization|(first|last|full|buyer)_?name|phone|street|(^|_)(address|zip|city)(_|$)/i;
const REDACTED = "[Redacted]";

/** counts and flags (`refreshTokens: 3`) say nothing about a person and stay */
const isSecret = (key: string, value: unknown): boolean =>
  SECRET_KEY.test(key) &&
  value !== undefined &&
  value !== null &&
  typeof value !== "number" &&
  typeof value !== "boolean";

/**
 * Every e-mail address as `***@domain`. Scans from each `@` backwards over the local part and forwards over
 * the domain, so the work stays linear in the text: URLs and messages are the client's to choose, and one
 * regular expression for the whole address took seconds on a long run of letters.
 */
export function maskEmails(text: string): string {
  if (!text.includes("@") && !text.includes("%40")) {
    return text;
  }
  let out = "";
  let copied = 0;
  // a local part never reaches back over an earlier `@`
  let floor = 0;
  for (const match of text.matchAll(AT)) {
    const at = match.index;
    let start = at;
    while (start > floor && LOCAL_CHAR.test(text.charAt(start - 1))) {
      start -= 1;
    }
    floor = at + match[0].length;
    DOMAIN.lastIndex = floor;
    const domain = start < at ? DOMAIN.exec(text) : null;
    if (domain) {
      out += `${text.slice(copied, start)}***@${domain[0]}`;
      copied = DOMAIN.lastIndex;
      floor = copied;
    }
  }
  return out + text.slice(copied);
}

const hasEmail = (text: string): boolean => maskEmails(text) !== text;

function maskQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const [key = "", value] = pair.split("=");
      return value === undefined || PLAIN_QUERY_KEYS.has(key) ? pair : `${key}=***`;
    })
    .join("&");
}

/** Token path segments and query values of a URL, wherever it appears in a text. */
export function maskUrls(text: string): string {
  // queries first: a masked path segment (`***`) would end the path QUERY reads before its `?`
  return text
    .replace(QUERY, (_match, path: string, query: string) => `${path}?${maskQuery(query)}`)
    .replace(TOKEN_PATH, "$1/***");
}

/** Everything the logs must not show that can be found in free text (messages, stacks, serialised lines). */
export function maskText(text: string): string {
  return maskUrls(maskEmails(text));
}

/** The client address without its host part (IPv4 /24, IPv6 /48): enough to see a network, not a person. */
export function truncateIp(ip: string | undefined): string | undefined {
  if (!ip) {
    return ip;
  }
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/i.exec(ip);
  if (v4) {
    return `${v4[1]}.0`;
  }
  if (ip.includes(":")) {
    // the groups before a "::" are the leading ones; at most three of them (/48) stay
    const leading = (ip.split("::")[0] ?? "").split(":").slice(0, 3);
    return `${leading.join(":")}::`;
  }
  return "***";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Secret keys redacted and errors serialised, in plain objects and arrays (class instances have serializers). */
function redactDeep(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    return serializeError(value);
  }
  if (depth > 6) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => redactDeep(item, depth + 1));
  }
  if (!isPlainObject(value)) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecret(key, item) ? REDACTED : redactDeep(item, depth + 1);
  }
  return out;
}

function causeChain(error: Error): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < 8 && !chain.includes(e); e = e.cause) {
    chain.push(e);
  }
  return chain;
}

/**
 * Drizzle's query errors carry every bound value in their message (`Failed query: ...\nparams: a,b,c`):
 * names, password hashes, token hashes, a whole IPN payload. The text of the params is cut from the
 * message and stack of every error of the chain (tRPC copies the cause's message into its own).
 */
function withoutParams(text: string | undefined, chain: Error[]): string | undefined {
  let result = text;
  for (const e of chain) {
    const params = (e as { params?: unknown }).params;
    if (
      result !== undefined &&
      Array.isArray(params) &&
      typeof (e as { query?: unknown }).query === "string"
    ) {
      result = result.split(`\nparams: ${String(params)}`).join(`\nparams: [${params.length} redacted]`);
    }
  }
  return result;
}

/**
 * PostgreSQL's `detail` shows the values of the row: `Key (lower(email))=(x@y.de) already exists` or
 * `Failing row contains (...)`. Keys keep their column names; values keep only what maskText leaves.
 */
function maskPgDetail(detail: string): string {
  if (/^Failing row contains/.test(detail)) {
    return "Failing row contains (...)";
  }
  return detail.replace(/^Key \((.*?)\)=\((.*)\)/s, (_m, columns: string, values: string) => {
    const shown = /^[\d, ]+$/.test(values) ? values : hasEmail(values) ? maskEmails(values) : "***";
    return `Key (${columns})=(${shown})`;
  });
}

const errorType = (error: Error): string => error.constructor?.name || error.name;

/** An error as a plain object (type, message, stack, own fields, cause), with nothing personal left in it. */
export function serializeError(error: unknown, chain?: Error[], depth = 0): unknown {
  if (!(error instanceof Error)) {
    return error;
  }
  const all = chain ?? causeChain(error);
  const out: Record<string, unknown> = {
    type: errorType(error),
    message: withoutParams(error.message, all),
    stack: withoutParams(error.stack, all),
  };
  for (const [key, value] of Object.entries(error)) {
    if (key in out || key === "cause") {
      continue;
    }
    if (key === "params" && Array.isArray(value)) {
      out.params = `[${value.length} redacted]`;
    } else if (key === "detail" && typeof value === "string") {
      out.detail = maskPgDetail(value);
    } else {
      out[key] = isSecret(key, value) ? REDACTED : redactDeep(value, 1);
    }
  }
  if (error.cause !== undefined && depth < 5) {
    out.cause =
      error.cause instanceof Error ? serializeError(error.cause, all, depth + 1) : redactDeep(error.cause);
  }
  return out;
}

/** One line for an error stored outside the logs (a failed job's output in pg-boss' tables). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) {
    return maskText(String(error));
  }
  return maskText(`${errorType(error)}: ${withoutParams(error.message, causeChain(error))}`);
}

const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
];

/**
 * Options for every pino logger of the API. Layers, from structured to textual: the `req` serializer
 * logs method, masked URL, route pattern and truncated address (no headers); `formatters.log` redacts
 * secret keys and serialises errors under any key; the `err` serializer drops Drizzle's bound values and
 * PostgreSQL's row values; `hooks.logMethod` keeps a raw error message out of `msg`; `hooks.streamWrite` masks e-mail
 * addresses, token paths and query strings in the finished line, whatever produced it.
 */
export function privateLoggerOptions(): LoggerOptions {
  return {
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: maskUrls(req.url),
        route: req.routeOptions?.url,
        remoteAddress: truncateIp(req.ip),
      }),
      // Fastify's `res` serializer (status code only) stays
      err: (error) => serializeError(error) as { type: string; message: string; stack: string },
    },
    formatters: {
      log: (object) => redactDeep(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const [first, second] = args as unknown[];
        const error =
          first instanceof Error
            ? first
            : isPlainObject(first) && first.err instanceof Error
              ? first.err
              : undefined;
        // without a message pino takes the error's own, with Drizzle's query parameters in it
        if (error && typeof second !== "string" && !(isPlainObject(first) && "msg" in first)) {
          const message = withoutParams(error.message, causeChain(error)) ?? "";
          method.apply(this, [first as object, message]);
          return;
        }
        method.apply(this, args);
      },
      streamWrite: (line) => maskText(line),
    },
  };
}
