import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DEMO_LOGINS } from "@app/db";
import { demoSessionCookie, loggedInProblems } from "./demo-session";
import {
  auditPage,
  CATEGORIES,
  type Category,
  LighthouseRunError,
  type PageAudit,
  startChromium,
} from "./lighthouse";
import type { Budget, Row } from "./report";

const MIN_SCORE: Record<Category, number> = { performance: 95, accessibility: 100, "best-practices": 95 };

/**
 * Lighthouse's performance score moves by a few points between runs (more on a busy 2-core machine: on ours
 * the same build scored 89 to 97 within ten minutes). The simulated throttling multiplies the main thread's
 * observed work by four, so another process on the host only ever lowers a score: like the CPU budgets
 * (ADR 0102), a page is judged on its best run, and every run's score and the median are printed beside
 * it. Each page is audited eight times, in short mode (CI, `pnpm bench:ci`) /login only (one run takes 8-11 s;
 * five runs scored 88/92/93/89/86 in a `.ci/run` right after the test suites, and 93/91/93/93/95 alone a
 * minute later, ADR 0147); the logged-in overview stays in the full run.
 */
const RUNS = 8;

export interface AuditedPage {
  page: string;
  /** the run with the best performance score (the judged one) */
  audit: PageAudit;
  /** performance score of every run, to show the spread */
  runs: number[];
  /** why the run does not show what it should (e.g. the overview fell back to the login form) */
  problems: string[];
  ms: number;
}

async function withRetries(audit: () => Promise<PageAudit>, attempts = 3): Promise<PageAudit> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit();
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt >= attempts) {
        throw error;
      }
      console.warn(`${error.message}; trying again`);
    }
  }
}

/** BENCH_LHR=<dir> keeps the judged run's full report there (long tasks, scripts, trace-based audits). */
async function keepReport(page: string, audit: PageAudit): Promise<void> {
  const dir = process.env.BENCH_LHR;
  if (!dir) {
    return;
  }
  await mkdir(dir, { recursive: true });
  const name = page.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "root";
  await writeFile(join(dir, `${name}.json`), JSON.stringify(audit.lhr));
}

async function auditRepeatedly(
  page: string,
  runs: number,
  audit: () => Promise<PageAudit>,
  check: (audit: PageAudit) => string[] = () => [],
): Promise<AuditedPage> {
  const results: { audit: PageAudit; ms: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = await withRetries(audit);
    results.push({ audit: result, ms: Math.round(performance.now() - started) });
  }
  const best = results.reduce<(typeof results)[number] | undefined>(
    (kept, run) => (kept && kept.audit.scores.performance >= run.audit.scores.performance ? kept : run),
    undefined,
  );
  if (!best) {
    throw new Error(`no Lighthouse run for ${page}`);
  }
  const problems = [...new Set(results.flatMap((run) => check(run.audit)))];
  const scores = results.map((run) => run.audit.scores.performance);
  await keepReport(page, best.audit);
  return { page, audit: best.audit, runs: scores, problems, ms: best.ms };
}

/** The median of the runs' performance scores (printed beside the judged best). */
const median = (scores: number[]) => [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)];

/** /login and (not in short mode) the overview of the logged-in demo participant. */
export async function auditPages(serverUrl: string, short: boolean): Promise<AuditedPage[]> {
  const chromium = await startChromium();
  try {
    const pages = [
      await auditRepeatedly("/login", RUNS, () => auditPage(`${serverUrl}/login`, chromium.port)),
    ];
    if (!short) {
      const { email, password } = DEMO_LOGINS.participant;
      // a fresh login per run: the app rotates the refresh token on every page load
      const overview = async () => {
        const cookie = await demoSessionCookie(serverUrl, email, password);
        return auditPage(`${serverUrl}/`, chromium.port, { Cookie: cookie });
      };
      const check = (audit: PageAudit) => loggedInProblems(audit.lhr);
      pages.push(await auditRepeatedly("/ (logged in)", RUNS, overview, check));
    }
    return pages;
  } finally {
    await chromium.stop();
  }
}

export function lighthouseBudgets(pages: AuditedPage[]): Budget[] {
  return pages.flatMap(({ page, audit, runs, problems }) =>
    CATEGORIES.map((category) => {
      const score = audit.scores[category];
      const min = MIN_SCORE[category];
      const spread =
        category === "performance" && runs.length > 1
          ? `, best of ${runs.join("/")}, median ${median(runs)}`
          : "";
      const unmeasured = problems.length > 0 ? `; not measured as intended: ${problems.join("; ")}` : "";
      return {
        name: `Lighthouse ${page} ${category}`,
        ok: score >= min && problems.length === 0,
        detail: `${score} (at least ${min}${spread})${unmeasured}`,
        evidence: audit.failing[category].join("\n") || undefined,
      };
    }),
  );
}

export const lighthouseRows = (pages: AuditedPage[]): Row[] =>
  pages.map(({ page, audit, runs, ms }) => ({
    page,
    performance: audit.scores.performance,
    "perf runs": runs.join("/"),
    accessibility: audit.scores.accessibility,
    "best practices": audit.scores["best-practices"],
    "LCP ms": Math.round(audit.lcpMs),
    "TBT ms": Math.round(audit.tbtMs),
    CLS: audit.cls.toFixed(3),
    "run s": Math.round(ms / 100) / 10,
    // Lighthouse's CPU benchmark of this machine during the run: lower means a busier machine and a
    // higher simulated TBT (the 4x CPU throttling multiplies what was observed)
    "CPU index": Math.round(audit.lhr.environment.benchmarkIndex),
  }));

export const lighthouseFigures = (pages: AuditedPage[]) =>
  pages.map(({ page, audit, runs, problems, ms }) => ({
    page,
    performanceRuns: runs,
    finalUrl: audit.lhr.finalDisplayedUrl,
    scores: audit.scores,
    lcpMs: audit.lcpMs,
    tbtMs: audit.tbtMs,
    cls: audit.cls,
    failing: audit.failing,
    benchmarkIndex: audit.lhr.environment.benchmarkIndex,
    problems,
    ms,
  }));
