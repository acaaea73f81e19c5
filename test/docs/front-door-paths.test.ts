import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { expect, it } from 'vitest';

// The front doors name files a reader will open: every `code` span of README.md, ARCHITECTURE.md,
// CONTRIBUTING.md and every page of docs/ that is a path (it has a slash and a file extension, or ends
// in a slash) names a tracked file or folder, from the repository root or below a folder the page
// speaks of (`history/insert-*.cql`); one `*` matches within a name; a bare file name
// (`claim-defer.sql`) is the name of a tracked file. A moved or renamed file fails here until the
// page follows it. Placeholders (`<name>`, `NNNN`), URLs and routes are left out, and so are the
// paths of EXTERNAL: what a build or a run makes (never tracked) and a file of another project.

const EXTERNAL = new Set([
  'dist/',
  'apps/console/dist/',
  'loadtest/results/tmp/',
  'schema/compose-spec.json', // inside the compose-go module (docs/deploy.md)
]);
const CODE_FILE = /\.(ts|tsx|sql|cql|sh|ya?ml|py|md|json)$/;

const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const names = new Set(tracked.map((f) => f.slice(f.lastIndexOf('/') + 1)));
const folders = new Set(
  tracked.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, p) => `${p.slice(0, i + 1).join('/')}/`),
  ),
);

function pattern(path: string): RegExp {
  const body = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`(^|/)${body}$`);
}

function resolves(path: string): boolean {
  if (!path.includes('/'))
    return names.has(path) || (path.includes('*') && [...names].some((n) => pattern(path).test(n)));
  const rx = pattern(path);
  return path.endsWith('/') ? [...folders].some((d) => rx.test(d)) : tracked.some((f) => rx.test(f));
}

const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  ...tracked.filter((f) => /^docs\/[^/]+\.md$/.test(f)),
];

const paths = PAGES.flatMap((page) =>
  [...readFileSync(join(REPO_ROOT, page), 'utf8').matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^(\/|@|https?:|\$|~|\.)|[<>{}]|NNNN/.test(t) && !EXTERNAL.has(t))
    .filter((t) =>
      t.includes('/') ? CODE_FILE.test(t) || t.endsWith('/') : CODE_FILE.test(t) && /^[\w*.-]+$/.test(t),
    )
    .map((t) => ({ page, path: t })),
);

it('finds the paths the front doors name', () => {
  expect(paths.length).toBeGreaterThan(100);
  expect(paths).toContainEqual({ page: 'ARCHITECTURE.md', path: 'packages/mysql/src/jobs/claim/claims.ts' });
});

it('every path the front doors and docs/ name is a tracked file or folder', () => {
  expect(paths.filter(({ path }) => !resolves(path)).map(({ page, path }) => `${page}: ${path}`)).toEqual([]);
});
