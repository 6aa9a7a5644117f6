#!/usr/bin/env bash
# Runs a command under Node 24 LTS, whatever Node the machine has:
#   scripts/with-node24.sh pnpm --filter @app/api test
# The binary comes from the npm registry package `node@24` (through `npx -y`, cached in the npm cache). Its
# folder goes first on PATH, so everything below that starts `node` by name (pnpm, the .bin shims, tsx,
# vitest) runs on 24 too, and every child started through process.execPath (Vitest workers, tsx children,
# fork()) inherits it. NODE24_BIN, when set, is used instead of asking npx (it is exported, so nested calls
# resolve only once per run; a host that has Node 24 installed can point it there).
# Turbo's task hash does not include the Node version: under turbo (`pnpm test`, `pnpm build`) a task already
# run on another Node is replayed from the cache. Call the package script directly (`pnpm --filter ... test`)
# or set TURBO_FORCE=true when the task itself must run on 24.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]   (runs the command with Node 24 first on PATH)" >&2
  exit 64
fi

if [ -z "${NODE24_BIN:-}" ] || [ ! -x "${NODE24_BIN}" ]; then
  # Outside the repository, so no workspace configuration gets in the way of npx; stdout carries only the path.
  if ! NODE24_BIN="$(cd / && env -u npm_config_verify_deps_before_run npx -y node@24 -e 'process.stdout.write(process.execPath)')" \
    || [ -z "${NODE24_BIN}" ] || [ ! -x "${NODE24_BIN}" ]; then
    echo "with-node24: could not fetch Node 24 through 'npx -y node@24' (is the npm registry reachable?)." >&2
    echo "with-node24: set NODE24_BIN to a Node 24 binary to skip the download." >&2
    exit 69
  fi
fi

version="$("${NODE24_BIN}" --version)"
case "${version}" in
  v24.*) ;;
  *)
    echo "with-node24: ${NODE24_BIN} is Node ${version}, not 24." >&2
    exit 69
    ;;
esac

export NODE24_BIN
PATH="$(dirname "${NODE24_BIN}"):${PATH}"
export PATH
echo "with-node24: node ${version} (${NODE24_BIN})" >&2
exec "$@"
