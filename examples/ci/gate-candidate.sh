#!/usr/bin/env bash
# Gates a candidate build of a client against the client's last release on a spanner-client-bench
# server and writes the verdicts' Markdown for a pull-request comment: the steps of docs/ci.md's
# GitHub Actions workflows, for any CI. Exit code: 0 every gate passed, 1 one failed, 2 one was
# inconclusive or the run failed.
#   SCB_SERVER  the server's URL                 SCB_TOKEN  an API token there (npm run token -- create ci)
#   LANGUAGE    node | java | go                 BASELINE   the release to compare with, e.g. 9.0.0
#   BUILD       the build's file (build-candidate.sh writes it)
#   LABEL       its name in pages, e.g. "PR 2345 @ 1a2b3c4"
#   SCENARIOS   gate scenarios, space-separated (default: affinity-burst)
#   GATE_FLAGS  more `npm run gate` flags, e.g. "--repeats 3" (optional)
#   BENCH_DIR   a checkout of spanner-client-bench with `npm ci` run (default: this script's own)
#   OUT         where the Markdown goes (default: gate.md)
set -euo pipefail
: "${SCB_SERVER:?SCB_SERVER: the URL of the spanner-client-bench server}"
: "${LANGUAGE:?LANGUAGE: node, java or go}"
: "${BASELINE:?BASELINE: the release to gate against}"
: "${BUILD:?BUILD: the file of the candidate build}"
: "${LABEL:?LABEL: the name of the build, e.g. PR 2345 @ 1a2b3c4}"
bench=${BENCH_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
out=${OUT:-gate.md}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
case "$BUILD" in /*) build=$BUILD ;; *) build="$PWD/$BUILD" ;; esac

args=(--server "$SCB_SERVER" --language "$LANGUAGE" --baseline "$BASELINE" --candidate-artifact "$build" --label "$LABEL")
for s in ${SCENARIOS:-affinity-burst}; do args+=(--scenario "$s"); done
# shellcheck disable=SC2206 # GATE_FLAGS is a list of flags
[ -n "${GATE_FLAGS:-}" ] && args+=($GATE_FLAGS)

set +e
# The token goes through the environment (SCB_TOKEN), never onto a command line.
(cd "$bench" && npm run --silent gate -- "${args[@]}") >"$out"
code=$?
set -e
echo "gate-candidate.sh: exit $code; Markdown in $out" >&2
exit $code
