# Source me (`. scripts/env.sh`) for the developer's commands (`pnpm test`, `pnpm loadtest`,
# `pnpm bench`...): puts the Node.js 24 and pnpm that scripts/up.sh or scripts/test.sh installed on
# this shell's PATH, installing them if missing. The `dsched` command needs none of this (scripts/dsched).
# shellcheck source=lib/node.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)/lib/node.sh"
dsched_ensure_node && dsched_ensure_pnpm
