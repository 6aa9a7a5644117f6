import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startArgs, startFlags } from "./start-command";

describe("pnpm start", () => {
  it("gives the bundle the V8 memory flags it needs (ADR 0065, ADR 0142)", () => {
    expect(startFlags()).toEqual(
      expect.arrayContaining(["--max-semi-space-size=16", "--heap-growing-percent=100"]),
    );
    expect(startArgs("/elsewhere/server.mjs")).toEqual([...startFlags(), "/elsewhere/server.mjs"]);
  });

  it("names flags this Node accepts (it refuses a misspelt one at start)", () => {
    const out = execFileSync(process.execPath, [...startFlags(), "-e", "process.stdout.write('started')"]);
    expect(out.toString()).toBe("started");
    expect(() =>
      execFileSync(process.execPath, ["--heap-growing-percentage=100", "-e", "0"], { stdio: "pipe" }),
    ).toThrow(/bad option/);
  });
});
