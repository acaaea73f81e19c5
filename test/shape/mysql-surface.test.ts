import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// packages/mysql shows its subsystems as folders, each with an index.ts that is its public surface,
// and package.json's `exports` names only those (plus pool, ids, migrations, transaction, sql).
// Code outside the package (services, loadtest, bench, scripts, tests, other packages) imports
// those surfaces and nothing deeper: a deep import would tie it to a file's place in a folder.

const ROOT = new URL('../../', import.meta.url);
const EXPORTS = Object.keys(
  JSON.parse(readFileSync(new URL('packages/mysql/package.json', ROOT), 'utf8')).exports as Record<
    string,
    string
  >,
).map((k) => `@dsched/mysql${k.slice(1)}`);

/** Every import specifier of a TypeScript source: static, type-only, re-export and dynamic. */
function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g)) found.push(m[1]!);
  return found;
}

/** What is wrong with one file's imports of packages/mysql, as `file: specifier` lines. */
function deepMysqlImports(file: string, source: string): string[] {
  return importSpecifiers(source)
    .filter(
      (s) =>
        (s.startsWith('@dsched/mysql') && !EXPORTS.includes(s)) ||
        (s.startsWith('.') && /(^|\/)packages\/mysql\/src\//.test(s)) ||
        (s.startsWith('.') && /(^|\/)mysql\/src\//.test(s) && !file.startsWith('packages/mysql/')),
    )
    .map((s) => `${file}: ${s}`);
}

function sourcesOutsideMysql(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  // This file is left out: its own check below quotes deep imports on purpose.
  return out
    .split('\n')
    .filter((f) => f && !f.startsWith('packages/mysql/') && f !== 'test/shape/mysql-surface.test.ts');
}

/** Imports of files under `packages/mysql/src/<from>` that reach into `packages/mysql/src/<into>`. */
function layerBreaches(from: string, into: string): string[] {
  const root = new URL('packages/mysql/src/', ROOT);
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', `${from}/*.ts`],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter(Boolean);
  return files.flatMap((file) =>
    importSpecifiers(readFileSync(new URL(file, root), 'utf8'))
      .filter(
        (s) =>
          s.startsWith('.') &&
          new URL(s, new URL(file, root)).href.startsWith(new URL(`${into}/`, root).href),
      )
      .map((s) => `${file}: ${s}`),
  );
}

describe('the layers of packages/mysql', () => {
  it('jobs/ imports nothing of workflows/: the workflows layer registers its follow-ups with the finish path', () => {
    expect(layerBreaches('jobs', 'workflows')).toEqual([]);
    expect(layerBreaches('jobs', 'tasks')).toEqual([]);
  });
});

describe('the public surface of packages/mysql', () => {
  it('exports one index per folder, and every one of them exists', () => {
    expect(EXPORTS).toContain('@dsched/mysql/jobs/claim');
    for (const spec of EXPORTS) {
      const path = (
        JSON.parse(readFileSync(new URL('packages/mysql/package.json', ROOT), 'utf8')).exports as Record<
          string,
          string
        >
      )[`.${spec.slice('@dsched/mysql'.length)}`]!;
      expect(() => readFileSync(new URL(`packages/mysql/${path}`, ROOT))).not.toThrow();
    }
  });

  it('is all that code outside the package imports', () => {
    const deep = sourcesOutsideMysql().flatMap((f) =>
      deepMysqlImports(f, readFileSync(new URL(f, ROOT), 'utf8')),
    );
    expect(deep).toEqual([]);
  });

  it('finds a deep import when there is one', () => {
    const deep = `import { claimJobs } from '@dsched/mysql/jobs/claim/claims';
import { insertJobs } from '../../packages/mysql/src/jobs/insert-jobs.ts';
const m = await import('@dsched/mysql/workflows/workflow-walk');
import type { Pool } from '@dsched/mysql/pool';
export { tagDueJobs } from '@dsched/mysql/jobs/fair-share';`;
    expect(deepMysqlImports('services/x/src/adapters/a.ts', deep)).toEqual([
      'services/x/src/adapters/a.ts: @dsched/mysql/jobs/claim/claims',
      'services/x/src/adapters/a.ts: ../../packages/mysql/src/jobs/insert-jobs.ts',
      'services/x/src/adapters/a.ts: @dsched/mysql/workflows/workflow-walk',
    ]);
  });
});
