import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

// A service's decisions (`src/core/`) and the ports it names (`src/ports.ts`) import no driver, no
// HTTP framework and no store package (biome.json's noRestrictedImports says which): only the
// domain, the runtime (logging, metrics, spans, loops), zod, Node's built-ins and the service's own
// modules. ARCHITECTURE.md and CONTRIBUTING.md say so; this is the list that makes it true.

const ROOT = new URL('../../', import.meta.url);
const ALLOWED = [/^@dsched\/domain(\/|$)/, /^@dsched\/runtime$/, /^zod$/, /^node:/, /^\.\.?\//];

const files = execFileSync(
  'git',
  ['ls-files', '-co', '--exclude-standard', 'services/*/src/core/*.ts', 'services/*/src/ports.ts'],
  {
    cwd: ROOT,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter(Boolean);

it("every service's core and ports import only the domain, the runtime, zod and their own modules", () => {
  expect(files.length).toBeGreaterThan(20);
  const outside: string[] = [];
  for (const f of files) {
    const source = readFileSync(new URL(f, ROOT), 'utf8');
    for (const m of source.matchAll(
      /^(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'|\bimport\(\s*'([^']+)'/gm,
    )) {
      const specifier = (m[1] ?? m[2])!;
      if (!ALLOWED.some((rx) => rx.test(specifier))) outside.push(`${f}: ${specifier}`);
      if (/^\.\.?\//.test(specifier) && /adapters\//.test(specifier)) outside.push(`${f}: ${specifier}`);
    }
  }
  expect(outside).toEqual([]);
});
