/**
 * What an answer of `pnpm audit --prod --audit-level high --json` means for `pnpm audit:deps`. Pure: the
 * exit status and stdout of pnpm in, a verdict out (tested with captured answers in classify.test.ts).
 *
 * - `clean`: pnpm exited 0 with a report and no advisories at or above the level: exit 0.
 * - `findings`: a report with advisories at or above the level: exit 1.
 * - `unreachable`: exactly the refusal our registry gives today (both audit endpoints answered 405,
 *   ERR_PNPM_AUDIT_BAD_RESPONSE): a warning and exit 0. "Service refused", never "no advisories".
 * - `error`: anything else (DNS failure, refused connection, another status such as 500 or 404, 405 from
 *   one endpoint only, output that is not pnpm's, a signal): exit 1.
 */

export const AUDIT_ARGS = ["audit", "--prod", "--audit-level", "high", "--json"] as const;

const SEVERITY_ORDER = ["critical", "high", "moderate", "low", "info"] as const;
export type Severity = (typeof SEVERITY_ORDER)[number];

/** The fields of pnpm's (npm's) audit report that we read. */
export interface Advisory {
  id: number;
  title: string;
  module_name: string;
  severity: Severity;
  vulnerable_versions: string;
  patched_versions: string;
  url: string;
  github_advisory_id?: string;
  findings: Array<{ version: string; paths: string[] }>;
}

export type Verdict =
  | { kind: "clean"; exitCode: 0; below: Partial<Record<Severity, number>> }
  | { kind: "findings"; exitCode: 1; advisories: Advisory[] }
  | { kind: "unreachable"; exitCode: 0; detail: string }
  | { kind: "error"; exitCode: 1; detail: string };

export const BAD_RESPONSE = "ERR_PNPM_AUDIT_BAD_RESPONSE";

/**
 * pnpm's message when both endpoints answer with a status other than 200 (and not both 404), see
 * `audit()` in pnpm's lockfile/audit: "The audit endpoint (at <quick>) responded with <status>: <body>.
 * Fallback endpoint (at <full>) responded with <status>: <body>". Only 405 from both counts.
 */
const BOTH_405 =
  /^The audit endpoint \(at \S+\/-\/npm\/v1\/security\/audits\/quick\) responded with 405: .*\. Fallback endpoint \(at \S+\/-\/npm\/v1\/security\/audits\) responded with 405:(?: |$)/s;

/** True only for the registry's refusal of both audit endpoints with HTTP 405. */
export function isAuditRefused405(code: string, message: string): boolean {
  return code === BAD_RESPONSE && BOTH_405.test(message);
}

/** pnpm's error without --json: ` ERR_PNPM_X  message` (the spaces around the code may be U+2009). */
function plainError(stdout: string): { code: string; message: string } | undefined {
  const match = /^[\s\u2009]*(ERR_PNPM_[A-Z_]+)[\s\u2009]+([\s\S]*?)\s*$/.exec(stdout);
  return match ? { code: match[1] ?? "", message: match[2] ?? "" } : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function severityRank(severity: string): number {
  const rank = SEVERITY_ORDER.indexOf(severity as Severity);
  return rank === -1 ? SEVERITY_ORDER.length : rank;
}

export function classifyAudit(result: {
  status: number | null;
  signal?: string | null;
  stdout: string;
}): Verdict {
  const { status, stdout } = result;
  if (status === null) {
    return {
      kind: "error",
      exitCode: 1,
      detail: `pnpm audit ended by signal ${result.signal ?? "(unknown)"}`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    const plain = plainError(stdout);
    if (plain && status !== 0 && isAuditRefused405(plain.code, plain.message)) {
      return { kind: "unreachable", exitCode: 0, detail: plain.message };
    }
    const shown = stdout.trim().slice(0, 2000) || "(no output)";
    return {
      kind: "error",
      exitCode: 1,
      detail: `pnpm audit exited ${status} without a JSON report: ${shown}`,
    };
  }

  if (isObject(parsed) && isObject(parsed.error)) {
    const code = String(parsed.error.code ?? "");
    const message = String(parsed.error.message ?? "");
    if (status !== 0 && isAuditRefused405(code, message)) {
      return { kind: "unreachable", exitCode: 0, detail: message };
    }
    return { kind: "error", exitCode: 1, detail: `pnpm audit exited ${status}: ${code} ${message}`.trim() };
  }

  if (!isObject(parsed) || !isObject(parsed.advisories) || !isObject(parsed.metadata)) {
    return { kind: "error", exitCode: 1, detail: `pnpm audit exited ${status} with an unknown JSON answer` };
  }
  const advisories = (Object.values(parsed.advisories) as Advisory[]).sort(
    (a, b) => severityRank(a.severity) - severityRank(b.severity),
  );
  if (advisories.length > 0) {
    return { kind: "findings", exitCode: 1, advisories };
  }
  if (status !== 0) {
    return {
      kind: "error",
      exitCode: 1,
      detail: `pnpm audit exited ${status} with a report without advisories`,
    };
  }
  const counts = isObject(parsed.metadata.vulnerabilities) ? parsed.metadata.vulnerabilities : {};
  const below: Partial<Record<Severity, number>> = {};
  for (const severity of SEVERITY_ORDER) {
    const count = counts[severity];
    if (typeof count === "number" && count > 0) {
      below[severity] = count;
    }
  }
  return { kind: "clean", exitCode: 0, below };
}

/** The verdict as lines for the console. */
export function describe(verdict: Verdict): string[] {
  switch (verdict.kind) {
    case "clean": {
      const below = Object.entries(verdict.below).map(([severity, count]) => `${count} ${severity}`);
      return [
        "audit:deps: no known advisories of severity high or critical in production dependencies",
        ...(below.length > 0 ? [`audit:deps: below the level (not failing): ${below.join(", ")}`] : []),
      ];
    }
    case "findings":
      return [
        `audit:deps: ${verdict.advisories.length} advisor${verdict.advisories.length === 1 ? "y" : "ies"} of severity high or critical in production dependencies:`,
        ...verdict.advisories.flatMap((advisory) => {
          const paths = advisory.findings.flatMap((finding) => finding.paths);
          return [
            `  ${advisory.severity.toUpperCase()} ${advisory.module_name} ${advisory.vulnerable_versions} (fixed in ${advisory.patched_versions}): ${advisory.title}`,
            `    ${advisory.url}`,
            ...paths.slice(0, 5).map((path) => `    via ${path}`),
            ...(paths.length > 5
              ? [`    … ${paths.length - 5} more (pnpm why ${advisory.module_name})`]
              : []),
          ];
        }),
      ];
    case "unreachable":
      return [
        "audit:deps: WARNING: advisory service unreachable: the registry refused both audit endpoints with HTTP 405",
        `audit:deps: ${verdict.detail.trim()}`,
        "audit:deps: this is not a clean result; no advisories were checked",
      ];
    case "error":
      return [`audit:deps: the audit failed: ${verdict.detail}`];
  }
}
