# Sourced by the project's scripts: the Python client's tools (clients/python), each in a venv
# under ~/.cache/dsched/tools named by its pinned requirements file's hash, so a changed pin makes a
# new venv and two checkouts with the same pins share one. Needs dsched_ensure_python_venv
# (scripts/lib/apt.sh). packages/testkit/src/python.ts finds the same paths.
#   generator: openapi-python-client (clients/python/requirements/generator.txt)
#   test:      pytest, Flask and the client's dependencies (clients/python/requirements/test.txt)

# dsched_python_tool_venv <name> <requirements file>: prints the venv's path, making it if missing.
dsched_python_tool_venv() {
  local name="$1" req="$2" hash venv
  hash="$(sha256sum "$req" | cut -c1-12)"
  venv="${DSCHED_CACHE:-$HOME/.cache/dsched}/tools/python-$name-$hash"
  if [ ! -f "$venv/.complete" ]; then
    mkdir -p "$(dirname "$venv")"
    (
      # Two checkouts setting up at once: one installs, the other waits and finds it done.
      flock 9
      if [ ! -f "$venv/.complete" ]; then
        dsched_ensure_python_venv
        echo "dsched: installing the Python client's $name tools (PyPI, $(basename "$req")) into $venv" >&2
        rm -rf "$venv"
        python3 -m venv "$venv" >&2
        "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >&2
        touch "$venv/.complete"
      fi
    ) 9>"$venv.lock"
  fi
  echo "$venv"
}

dsched_ensure_python_client_tools() {
  local root="$1"
  dsched_python_tool_venv generator "$root/clients/python/requirements/generator.txt" >/dev/null
  dsched_python_tool_venv test "$root/clients/python/requirements/test.txt" >/dev/null
}
