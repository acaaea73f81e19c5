import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { expect, it } from 'vitest';

// CODEOWNERS covers every folder with an owner of its own, not only the catch-all `*`: every
// top-level folder, and every package, service, app, client, deploy, script and test folder one
// level below (the folders a change is reviewed by). A new package without a rule fails here.

const GROUPS = new Set(['packages', 'services', 'apps', 'clients', 'test', 'deploy', 'scripts']);

const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

const folders = new Set<string>();
for (const f of tracked) {
  const parts = f.split('/');
  // A group folder (packages/, services/, …) counts for the files directly in it; its folders count each.
  if (parts.length > 1 && (!GROUPS.has(parts[0]!) || parts.length === 2)) folders.add(`/${parts[0]}/`);
  if (parts.length > 2 && GROUPS.has(parts[0]!)) folders.add(`/${parts[0]}/${parts[1]}/`);
}

/** The anchored folder patterns of CODEOWNERS with at least one owner (the catch-all left out). */
const patterns = readFileSync(join(REPO_ROOT, 'CODEOWNERS'), 'utf8')
  .split('\n')
  .map((l) => l.trim().split(/\s+/))
  .filter((w) => w[0] && !w[0].startsWith('#') && w[0] !== '*' && w.slice(1).some((o) => o.startsWith('@')))
  .map((w) => w[0]!);

it('every folder has an owner of its own in CODEOWNERS', () => {
  expect(folders).toContain('/packages/mysql/');
  expect(folders.size).toBeGreaterThan(20);
  const unowned = [...folders]
    .filter((d) => !patterns.some((p) => p.endsWith('/') && d.startsWith(p)))
    .sort();
  expect(unowned).toEqual([]);
});

it('every pattern of CODEOWNERS names something that exists', () => {
  const stale = patterns.filter((p) => !tracked.some((f) => `/${f}`.startsWith(p))).sort();
  expect(stale).toEqual([]);
});
