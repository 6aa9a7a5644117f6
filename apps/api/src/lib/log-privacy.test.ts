import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { describeError, maskText, privateLoggerOptions, serializeError, truncateIp } from "./log-privacy";

describe("maskText", () => {
  it("keeps only the domain of e-mail addresses, also URL-encoded and with umlauts", () => {
    expect(maskText("an erika.muster+kongress@example.com ging")).toBe("an ***@example.com ging");
    expect(maskText("Key (lower(email))=(Jörg.Müller@beispiel-verlag.de) already exists")).toBe(
      "Key (lower(email))=(***@beispiel-verlag.de) already exists",
    );
    expect(maskText("/api/user?email=x%40y.de")).toBe("/api/user?email=***");
    expect(maskText("mail an x%40y.de")).toBe("mail an ***@y.de");
  });

  it("leaves package versions in stack traces alone", () => {
    const frame = "at node_modules/.pnpm/@trpc+server@11.22.1/node_modules/@trpc/server/dist/x.mjs:3:1";
    expect(maskText(frame)).toBe(frame);
  });

  it("drops token and hash path segments of the link routes", () => {
    expect(maskText("GET /confirm-mail/12/abcDEF_123-xyz/4/1 done")).toBe("GET /confirm-mail/*** done");
    expect(maskText("/migration/set-password/7/0123abcdef")).toBe("/migration/set-password/***");
    expect(maskText("/resetPassword/tok_en-42")).toBe("/resetPassword/***");
    expect(maskText("/api/auth/resetPassword/validate/tok_en-42")).toBe(
      "/api/auth/resetPassword/validate/***",
    );
    expect(maskText("/api/auth/resetPassword/reset/tok_en-42")).toBe("/api/auth/resetPassword/reset/***");
    // a certificate's verification code is its key to the certificate's facts (ADR 0117)
    expect(maskText('"url":"/bescheinigung/AbCdEfGhIjKlMnOp_rSt-vWx"')).toBe('"url":"/bescheinigung/***"');
    expect(maskText("GET /bescheinigung/AbCdEfGhIjKlMnOp_rSt-vWx?utm=x done")).toBe(
      "GET /bescheinigung/***?utm=*** done",
    );
    // a query after a masked segment is masked too
    expect(maskText("/login-link/tok_en-42?congress=Erika")).toBe("/login-link/***?congress=***");
    // the paths without a token stay readable
    expect(maskText("/api/auth/resetPassword /api/confirm-mail/ /resetPassword /bescheinigung/")).toBe(
      "/api/auth/resetPassword /api/confirm-mail/ /resetPassword /bescheinigung/",
    );
  });

  it("masks query values except the harmless ones", () => {
    expect(maskText('"url":"/trpc/auth.me,congress.list?batch=1&input=%7B%220%22%3A%7B%7D%7D"')).toBe(
      '"url":"/trpc/auth.me,congress.list?batch=1&input=***"',
    );
    expect(maskText("/api/user?name=Erika&page=2")).toBe("/api/user?name=***&page=2");
  });
});

describe("truncateIp", () => {
  it("keeps the network, not the host", () => {
    expect(truncateIp("203.0.113.77")).toBe("203.0.113.0");
    expect(truncateIp("::ffff:203.0.113.77")).toBe("203.0.113.0");
    expect(truncateIp("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe("2001:db8:85a3::");
    expect(truncateIp("2001:db8::7348")).toBe("2001:db8::");
    expect(truncateIp("::1")).toBe("::");
  });
});

/** Drizzle's query error as thrown by drizzle-orm 0.45 (message with every bound value). */
class DrizzleQueryError extends Error {
  constructor(
    readonly query: string,
    readonly params: unknown[],
    cause: unknown,
  ) {
    super(`Failed query: ${query}\nparams: ${params}`, { cause });
  }
}

describe("serializeError", () => {
  const pgError = Object.assign(
    new Error('duplicate key value violates unique constraint "users_email_lower_uq"'),
    {
      code: "23505",
      detail: "Key (lower(email))=(erika@example.com) already exists.",
      constraint: "users_email_lower_uq",
    },
  );
  const drizzle = new DrizzleQueryError(
    'insert into "users" ("email", "firstname", "password_hash") values ($1, $2, $3)',
    ["erika@example.com", "Erika", "$argon2id$v=19$secret"],
    pgError,
  );

  it("drops Drizzle's bound values and keeps the query, the PostgreSQL code and the masked detail", () => {
    const text = JSON.stringify(serializeError(drizzle));
    expect(text).not.toContain("Erika");
    expect(text).not.toContain("argon2id");
    expect(text).not.toContain("erika@example.com");
    expect(text).toContain("params: [3 redacted]");
    expect(text).toContain('insert into \\"users\\"');
    expect(text).toContain("23505");
    expect(text).toContain("Key (lower(email))=(***@example.com) already exists.");
    expect(describeError(drizzle)).toBe(
      'DrizzleQueryError: Failed query: insert into "users" ("email", "firstname", "password_hash") values ($1, $2, $3)\nparams: [3 redacted]',
    );
  });

  it("keeps the bound values out of the message pino takes from a logged error", async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: { ...privateLoggerOptions(), stream: { write: (l: string) => lines.push(l) } },
    });
    app.log.error(drizzle);
    app.log.error({ err: drizzle });
    app.log.warn({ err: drizzle }, "own message");
    await app.close();
    const messages = lines.map((line) => JSON.parse(line).msg);
    expect(messages[0]).toMatch(/^Failed query: insert into "users".*\nparams: \[3 redacted\]$/s);
    expect(messages[1]).toBe(messages[0]);
    expect(messages[2]).toBe("own message");
    expect(lines.join("")).not.toMatch(/Erika|argon2id|erika@/);
  });

  it("hides the row of a check or not-null violation and secret fields of any error", () => {
    const error = Object.assign(new Error("null value"), {
      detail: "Failing row contains (1, erika@example.com, Erika, Muster).",
      token: "abc",
    });
    const text = JSON.stringify(serializeError(error));
    expect(text).not.toMatch(/Erika|Muster|abc"/);
  });
});

describe("formatters.log", () => {
  it("redacts secret and personal keys at any depth and keeps counts and flags", () => {
    const format = privateLoggerOptions().formatters?.log;
    expect(
      format?.({
        password: "geheim",
        refreshTokens: 3,
        valid: true,
        payload: { buyer_first_name: "Jörg", address_street: "Hauptstr. 1", order_id: "ORD-1" },
        headers: [{ authorization: "Bearer x", cookie: "a=b", host: "app.test" }],
      }),
    ).toEqual({
      password: "[Redacted]",
      refreshTokens: 3,
      valid: true,
      payload: { buyer_first_name: "[Redacted]", address_street: "[Redacted]", order_id: "ORD-1" },
      headers: [{ authorization: "[Redacted]", cookie: "[Redacted]", host: "app.test" }],
    });
  });
});

describe("cost", () => {
  it("stays linear on long text a client chose (a URL, a form value in an error)", () => {
    const shapes = ["a".repeat(100_000), "/a".repeat(50_000), "a@".repeat(50_000), "%40a".repeat(25_000)];
    const started = performance.now();
    for (const text of shapes) {
      maskText(text);
    }
    // a pattern that backtracks takes seconds here
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
