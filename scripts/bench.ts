// `pnpm bench <name>` runs bench/<name>.ts (docs/design.md "Conventions for measuring"): each brings up
// the stack it needs when it is down, prints a readable table and, last, one JSON line
// {"bench": "<name>", "metrics": {...}}.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../bench/', import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));
const [name, ...args] = process.argv.slice(2);
if (!name || !existsSync(`${dir}${name}.ts`)) {
  process.stderr.write(
    `usage: pnpm bench <name> [args]\navailable: ${available.join(', ') || '(none yet)'}\n`,
  );
  process.exit(2);
}
const res = spawnSync(process.execPath, [`${dir}${name}.ts`, ...args], { stdio: 'inherit' });
process.exit(res.status ?? 1);
