#!/usr/bin/env bash
# Generates the Python client's API packages, src/dsched/task_api and src/dsched/job_api, from the
# OpenAPI documents the APIs serve (committed as packages/client/openapi/*.json, which
# packages/client's own test keeps equal to what the services build), with the pinned
# openapi-python-client (requirements/generator.txt). `pnpm client:generate` runs it after writing
# the documents.
#   clients/python/scripts/generate.sh           rewrite the packages
#   clients/python/scripts/generate.sh --check   change nothing; exit 1 and name the files that
#                                                 differ when the committed code is stale
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
. "$ROOT/scripts/lib/apt.sh"
. "$ROOT/scripts/lib/python-client.sh"
PACKAGE="$ROOT/clients/python/src/dsched"
VENV="$(dsched_python_tool_venv generator "$ROOT/clients/python/requirements/generator.txt")"

generate_into() {
  local out="$1" api pkg
  for api in task-api job-api; do
    pkg="${api/-/_}"
    rm -rf "${out:?}/$pkg"
    # ruff (the generator's post-hooks) runs with --isolated: no pyproject.toml around the output
    # may change how the code is formatted, so --check in a scratch directory formats alike.
    (cd "$out" && PATH="$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate \
      --path "$ROOT/packages/client/openapi/$api.json" --meta none --output-path "$pkg" \
      --config "$ROOT/clients/python/scripts/generator.yaml" --fail-on-warning >/dev/null)
  done
}

if [ "${1:-}" = --check ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  generate_into "$scratch"
  stale=0
  for pkg in task_api job_api; do
    diff -r -q -x __pycache__ "$scratch/$pkg" "$PACKAGE/$pkg" >&2 || stale=1
  done
  if [ "$stale" = 1 ]; then
    echo "clients/python is stale against packages/client/openapi/*.json: run pnpm client:generate and commit" >&2
    exit 1
  fi
  echo "clients/python matches the OpenAPI documents"
else
  generate_into "$PACKAGE"
  echo "wrote clients/python/src/dsched/task_api and job_api"
fi
