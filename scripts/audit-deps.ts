/**
 * `pnpm audit:deps`: known advisories in the production dependencies, through the registry's audit service.
 * Runs `pnpm audit --prod --audit-level high --json` (extra arguments are passed on, e.g. `--registry`) and
 * exits 1 on any advisory of severity high or critical and on every failure of the audit itself. The one
 * exception: the registry refuses both audit endpoints with HTTP 405 (ERR_PNPM_AUDIT_BAD_RESPONSE, as
 * registry.npmjs.org does from our machines): a warning "advisory service unreachable" and exit 0, since
 * nothing here can change that. A DNS failure, a refused connection or any other status fails.
 * The rules are in audit-deps/classify.ts.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { AUDIT_ARGS, classifyAudit, describe } from "./audit-deps/classify";

const root = resolve(import.meta.dirname, "..");
const args = [...AUDIT_ARGS, ...process.argv.slice(2)];
console.log(`audit:deps: pnpm ${args.join(" ")}`);

const result = spawnSync("pnpm", args, {
  cwd: root,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
  stdio: ["ignore", "pipe", "pipe"],
});
if (result.error) {
  console.error(`audit:deps: could not run pnpm: ${result.error.message}`);
  process.exit(1);
}
if (result.stderr.trim()) {
  process.stderr.write(result.stderr);
}

const verdict = classifyAudit({ status: result.status, signal: result.signal, stdout: result.stdout });
const print = verdict.exitCode === 0 && verdict.kind === "clean" ? console.log : console.error;
for (const line of describe(verdict)) {
  print(line);
}
process.exit(verdict.exitCode);
