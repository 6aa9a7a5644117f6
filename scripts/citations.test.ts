/**
 * Code and docs cite what the repository has: a decision record (`ADR 0042`, or its path under
 * docs/decisions/) or a file, never an issue number, which the repository cannot show (docs/decisions/README.md).
 * Every tracked text file is read, lockfiles aside; a citation of a record that does not exist fails as well.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const recordsDir = join(root, "docs", "decisions");

/** generated files whose text is not ours to word */
const NOT_OURS = /(^|\/)pnpm-lock\.yaml$/;

interface Hit {
  where: string;
  text: string;
}

function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((path) => path !== "" && !NOT_OURS.test(path));
  const texts: { path: string; text: string }[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    if (!bytes.includes(0)) {
      texts.push({ path, text: bytes.toString("utf8") });
    }
  }
  return texts;
}

function hits(pattern: RegExp, accept: (match: RegExpExecArray) => boolean = () => false): Hit[] {
  const found: Hit[] = [];
  for (const { path, text } of trackedTexts()) {
    text.split("\n").forEach((line, index) => {
      for (const match of line.matchAll(pattern)) {
        if (!accept(match)) {
          found.push({ where: `${path}:${index + 1}`, text: match[0] });
        }
      }
    });
  }
  return found;
}

const records = readdirSync(recordsDir).filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name));
const recordNumbers = new Set(records.map((name) => name.slice(0, 4)));

describe("citations", () => {
  it("the decision records are numbered files with a status", () => {
    expect(records.length).toBeGreaterThan(0);
    for (const name of records) {
      const text = readFileSync(join(recordsDir, name), "utf8");
      expect(text, name).toMatch(new RegExp(`^# ADR ${name.slice(0, 4)}: `));
      expect(text, name).toMatch(/^Status: (Accepted|Superseded (in part )?by ADR \d{4})/m);
    }
  });

  it("no tracked file cites an issue number", () => {
    expect(hits(/\bissues?\s+#?\d+/gi)).toEqual([]);
  });

  it("no tracked file cites the old decision log or its numbers", () => {
    expect(hits(/\bdecisions?\s+\d+|decisions\.md/gi)).toEqual([]);
  });

  it("every cited ADR exists in docs/decisions/", () => {
    expect(hits(/\bADRs?\s+(\d+)/g, (match) => recordNumbers.has(match[1] ?? ""))).toEqual([]);
  });

  it("every path of a decision record that a file names exists", () => {
    const names = new Set(records);
    expect(hits(/\b\d{4}-[a-z0-9-]+\.md\b/g, (match) => names.has(match[0]))).toEqual([]);
  });
});
