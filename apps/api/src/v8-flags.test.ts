import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { missingV8Flags, V8_FLAGS } from "./v8-flags";

describe("missingV8Flags", () => {
  it("bounds the young generation and the old generation's growth when started without flags", () => {
    expect(V8_FLAGS).toEqual(["--max-semi-space-size=16", "--heap-growing-percent=100"]);
    expect(missingV8Flags([])).toEqual([...V8_FLAGS]);
    expect(missingV8Flags(["--enable-source-maps"], "--max-old-space-size=512")).toEqual([...V8_FLAGS]);
  });

  it("leaves a value the operator gave alone, on the command line or in NODE_OPTIONS", () => {
    expect(missingV8Flags(["--max-semi-space-size=32"])).toEqual(["--heap-growing-percent=100"]);
    expect(missingV8Flags(["--max_semi_space_size=8"], "--heap_growing_percent=50")).toEqual([]);
    expect(missingV8Flags([], "--inspect  --max-semi-space-size=4")).toEqual(["--heap-growing-percent=100"]);
  });
});

describe("restartWithV8Flags", () => {
  const canRestart = typeof (process as { execve?: unknown }).execve === "function";

  it.skipIf(!canRestart)("starts the same process again with the flags, once", async () => {
    const script = [
      `import { restartWithV8Flags } from ${JSON.stringify(new URL("./v8-flags.ts", import.meta.url).href)};`,
      "console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv.filter((a) => a.startsWith('--max') || a.startsWith('--heap')) }));",
      "restartWithV8Flags();",
    ].join("\n");
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    expect(child.stderr).toBe("");
    const lines = child.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { pid: child.pid, execArgv: [] },
      { pid: child.pid, execArgv: [...V8_FLAGS] },
    ]);
  });
});
