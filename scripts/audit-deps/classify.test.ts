/**
 * The verdicts of `pnpm audit:deps` on answers pnpm 10.34.9 really gave (fixtures/, stdout of
 * `pnpm audit --prod --audit-level high --json` in this repository, exit status as noted):
 * - npmjs-405.*: registry.npmjs.org from our machines (with --json and without), exit 1.
 * - findings, moderate, clean, 500, 404, 405-500: pnpm against a local stand-in for the audit endpoints
 *   (`--registry http://127.0.0.1:<port>/`, port rewritten to 4873) that answered with that status, or with
 *   200 and a report in npm's format (advisories of real GHSAs, versions and paths made up for the test).
 * - dns, refused: `--registry http://registry.invalid/` and a closed local port, exit 1.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, describe as group, it } from "vitest";
import { classifyAudit, describe, isAuditRefused405 } from "./classify";

const fixture = (name: string) => readFileSync(resolve(import.meta.dirname, "fixtures", name), "utf8");

group("classifyAudit", () => {
  it("warns and passes on the registry's 405 from both endpoints, with --json", () => {
    const verdict = classifyAudit({ status: 1, stdout: fixture("npmjs-405.json.txt") });
    expect(verdict.kind).toBe("unreachable");
    expect(verdict.exitCode).toBe(0);
    expect(describe(verdict).join("\n")).toContain("advisory service unreachable");
  });

  it("recognises the same refusal in pnpm's plain output", () => {
    const verdict = classifyAudit({ status: 1, stdout: fixture("npmjs-405.text.txt") });
    expect(verdict).toMatchObject({ kind: "unreachable", exitCode: 0 });
  });

  it("fails on advisories of severity high and critical, the critical one first", () => {
    const verdict = classifyAudit({ status: 1, stdout: fixture("findings.json.txt") });
    expect(verdict.kind).toBe("findings");
    expect(verdict.exitCode).toBe(1);
    if (verdict.kind !== "findings") {
      return;
    }
    expect(verdict.advisories.map((advisory) => [advisory.severity, advisory.module_name])).toEqual([
      ["critical", "ws"],
      ["high", "find-my-way"],
    ]);
    const text = describe(verdict).join("\n");
    expect(text).toContain("https://github.com/advisories/GHSA-rrr8-f88r-h8q6");
    expect(text).toContain("via apps__api>fastify>find-my-way");
  });

  it("fails on findings even if pnpm exited 0", () => {
    const verdict = classifyAudit({ status: 0, stdout: fixture("findings.json.txt") });
    expect(verdict).toMatchObject({ kind: "findings", exitCode: 1 });
  });

  it("passes without advisories and names those below the level", () => {
    expect(classifyAudit({ status: 0, stdout: fixture("clean.json.txt") })).toEqual({
      kind: "clean",
      exitCode: 0,
      below: {},
    });
    const moderate = classifyAudit({ status: 0, stdout: fixture("moderate.json.txt") });
    expect(moderate).toEqual({ kind: "clean", exitCode: 0, below: { moderate: 1 } });
    expect(describe(moderate).join("\n")).toContain("1 moderate");
  });

  it.each([
    ["500.json.txt", "responded with 500"],
    ["405-500.json.txt", "responded with 500"],
    ["404.json.txt", "ERR_PNPM_AUDIT_ENDPOINT_NOT_EXISTS"],
    ["dns.json.txt", "ENOTFOUND"],
    ["refused.json.txt", "ECONNREFUSED"],
  ])("fails on %s", (name, detail) => {
    const verdict = classifyAudit({ status: 1, stdout: fixture(name) });
    expect(verdict.kind).toBe("error");
    expect(verdict.exitCode).toBe(1);
    expect(describe(verdict).join("\n")).toContain(detail);
  });

  it("fails on output that is not pnpm's report, a report with an unexpected exit status, or a signal", () => {
    expect(classifyAudit({ status: 0, stdout: "" }).exitCode).toBe(1);
    expect(classifyAudit({ status: 1, stdout: "Not Found" }).exitCode).toBe(1);
    expect(classifyAudit({ status: 0, stdout: "[]" }).exitCode).toBe(1);
    expect(classifyAudit({ status: 1, stdout: fixture("clean.json.txt") }).exitCode).toBe(1);
    expect(classifyAudit({ status: null, signal: "SIGTERM", stdout: "" }).exitCode).toBe(1);
  });

  it("does not accept the 405 refusal with exit status 0", () => {
    expect(classifyAudit({ status: 0, stdout: fixture("npmjs-405.json.txt") }).exitCode).toBe(1);
  });
});

group("isAuditRefused405", () => {
  const message = JSON.parse(fixture("npmjs-405.json.txt")).error.message as string;

  it("needs the error code and 405 from both endpoints", () => {
    expect(isAuditRefused405("ERR_PNPM_AUDIT_BAD_RESPONSE", message)).toBe(true);
    expect(isAuditRefused405("ERR_PNPM_AUDIT_ENDPOINT_NOT_EXISTS", message)).toBe(false);
    expect(isAuditRefused405("ERR_PNPM_AUDIT_BAD_RESPONSE", message.replace("405", "503"))).toBe(false);
    expect(isAuditRefused405("ERR_PNPM_AUDIT_BAD_RESPONSE", message.replace(/405(?!.*405)/s, "502"))).toBe(
      false,
    );
    expect(isAuditRefused405("ERR_PNPM_AUDIT_BAD_RESPONSE", "responded with 405")).toBe(false);
  });
});
