import { mkdir, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { launch } from "chrome-launcher";
import lighthouse, { type Flags, type Result } from "lighthouse";
import { repoRoot } from "./report";

export const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Chromium {
  port: number;
  stop(): Promise<void>;
}

/** Debian's Chromium with a fresh profile in the git-ignored `.data/`, removed again on stop. */
export async function startChromium(): Promise<Chromium> {
  const userDataDir = resolve(repoRoot, `.data/bench-chromium-${process.pid}`);
  await rm(userDataDir, { recursive: true, force: true });
  await mkdir(userDataDir, { recursive: true });
  const chrome = await launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
    ],
    userDataDir,
    logLevel: "silent",
  });
  const exited = new Promise<void>((done) => {
    if (chrome.process.exitCode !== null) {
      done();
    } else {
      chrome.process.once("exit", () => done());
    }
  });
  return {
    port: chrome.port,
    stop: async () => {
      chrome.kill();
      await exited;
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface PageAudit {
  lhr: Result;
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** titles of the audits that cost points: weight > 0 and score < 1, per category */
  failing: Record<Category, string[]>;
}

const numeric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

function failingAudits(lhr: Result, category: Category): string[] {
  return (lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
    .map((audit) => `${audit?.title}${audit?.displayValue ? ` (${audit.displayValue})` : ""}`);
}

/** A failed run Lighthouse itself asks to repeat (e.g. NO_NAVSTART, NO_FCP on a busy machine). */
export class LighthouseRunError extends Error {}

/**
 * A run takes 8-12 s; now and then one never settles on our headless Chromium (seen twice in one evening),
 * which would hold the whole benchmark. Such a run counts as failed and is repeated like Lighthouse's own.
 */
const RUN_TIMEOUT_MS = 90_000;

function withTimeout<T>(work: Promise<T>, ms: number, url: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LighthouseRunError(`Lighthouse did not finish ${url} within ${ms / 1000} s`)),
      ms,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Lighthouse's default config: mobile form factor, simulated slow-4G and 4x CPU throttling. */
export async function auditPage(
  url: string,
  port: number,
  extraHeaders?: Record<string, string>,
): Promise<PageAudit> {
  const flags: Flags = {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    ...(extraHeaders ? { extraHeaders } : {}),
  };
  const result = await withTimeout(lighthouse(url, flags), RUN_TIMEOUT_MS, url);
  const lhr = result?.lhr;
  if (!lhr) {
    throw new Error(`Lighthouse returned no result for ${url}`);
  }
  if (lhr.runtimeError) {
    throw new LighthouseRunError(
      `Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
    );
  }
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  return {
    lhr,
    scores: {
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
    },
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    failing: {
      performance: failingAudits(lhr, "performance"),
      accessibility: failingAudits(lhr, "accessibility"),
      "best-practices": failingAudits(lhr, "best-practices"),
    },
  };
}
