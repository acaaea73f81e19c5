import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { describe, expect, it } from 'vitest';
import {
  killersFromTable,
  loadMutations,
  parseArgs,
  rowKey,
  selects,
  testFilesExcluding,
} from '../../scripts/fence-mutations.ts';

// The fence mutations' list (scripts/fence-mutations.yaml) stays runnable as the code moves: every
// test it names exists, every file it edits exists and holds each text it edits exactly once. The
// mutations themselves run with `node scripts/fence-mutations.ts` (tens of minutes, docs/fences.md).

const LIST = readFileSync(join(REPO_ROOT, 'scripts/fence-mutations.yaml'), 'utf8');
const inRepo = (path: string) => {
  try {
    readFileSync(join(REPO_ROOT, path));
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EISDIR';
  }
};

describe('the committed list', () => {
  const mutations = loadMutations(LIST, inRepo);

  it('names only tests and files that exist', () => {
    expect(mutations.length).toBeGreaterThan(90);
    expect(new Set(mutations.map((m) => m.id)).size).toBe(mutations.length);
  });

  it('finds each text it edits exactly once in its file', () => {
    const misses = mutations.flatMap((m) =>
      m.edits
        .filter((e) => readFileSync(join(REPO_ROOT, e.file), 'utf8').split(e.find).length !== 2)
        .map((e) => `${m.id}: ${JSON.stringify(e.find)} is not once in ${e.file}`),
    );
    expect(misses).toEqual([]);
  });

  it('has its row in docs/fences.md, each one (a run with --killers reads it)', () => {
    const table = killersFromTable(readFileSync(join(REPO_ROOT, 'docs/fences.md'), 'utf8'));
    expect(mutations.filter((m) => !table.has(rowKey(m))).map((m) => m.id)).toEqual([]);
  });
});

describe('a list', () => {
  const exists = (path: string) => !path.includes('missing');
  const list = (tests: string, extra = '') => `
groups:
  storage: [packages/mysql/test]
  both: [storage, services/executor/test]
${extra}
mutations:
  - id: a.state
    condition: state
    edits:
      - { file: packages/mysql/src/a.sql, remove: " AND state = 'x'" }
      - { file: packages/mysql/src/a.sql, always: "id = ?" }
      - { file: packages/mysql/src/a.sql, find: "WHERE 0", replace: "WHERE 1" }
    tests: ${tests}
`;

  it('resolves groups, also of groups, and reads the three kinds of edit', () => {
    const [m] = loadMutations(list('[both, test/e2e/x.test.ts]'), exists);
    expect(m!.tests).toEqual(['packages/mysql/test', 'services/executor/test', 'test/e2e/x.test.ts']);
    expect(m!.edits.map((e) => [e.find, e.replace])).toEqual([
      [" AND state = 'x'", ''],
      ['id = ?', '(id = ? OR 1)'],
      ['WHERE 0', 'WHERE 1'],
    ]);
  });

  it('is refused when it names a test file that does not exist, naming it', () => {
    expect(() => loadMutations(list('[storage, test/e2e/missing.test.ts]'), exists)).toThrow(
      /a\.state: no test file or folder test\/e2e\/missing\.test\.ts/,
    );
    expect(() => loadMutations(list('[broken]', '  broken: [packages/missing/test]'), exists)).toThrow(
      /group broken: no test file or folder packages\/missing\/test/,
    );
  });

  it('is refused when it names a group that does not exist, or a group that includes itself', () => {
    expect(() => loadMutations(list('[nope]'), exists)).toThrow(/a\.state: no group named nope/);
    expect(() => loadMutations(list('[loop]', '  loop: [loop]'), exists)).toThrow(
      /group loop includes itself/,
    );
  });
});

describe('an earlier run’s table', () => {
  const table = `
| statement | condition removed | tests that fail without it |
| --- | --- | --- |
| \`jobs/a.sql\` | \`state = 'x'\` | packages/mysql/test/a.test.ts › one<br>test/e2e/b.test.ts › two<br>packages/mysql/test/a.test.ts › three |
| \`jobs/c.sql\` | \`id = ?\` | none — by design: a lock before it |
| \`jobs/a.sql\` | \`state = 'x'\` | services/x/test/y.test.ts › again, in a later run |
`;

  it('gives, per statement and condition, the files whose tests failed, once each, over every run', () => {
    const killers = killersFromTable(table);
    expect(killers.get("jobs/a.sql | `state = 'x'`")).toEqual([
      'packages/mysql/test/a.test.ts',
      'test/e2e/b.test.ts',
      'services/x/test/y.test.ts',
    ]);
    expect(killers.get('jobs/c.sql | `id = ?`')).toEqual([]);
    expect(killers.size).toBe(2);
  });

  it('shares its key with the mutation the row came from', () => {
    const key = rowKey({
      condition: "`state = 'x'`",
      edits: [{ file: 'packages/mysql/src/jobs/a.sql', find: 'x', replace: '' }],
    });
    expect(killersFromTable(table).has(key)).toBe(true);
  });
});

describe('a filter', () => {
  const all = [
    { id: 'renew-leases.token' },
    { id: 'renew-leases.token-holder-both' },
    { id: 'lease-renew.attempt' },
  ];
  it('names one mutation exactly, or every one whose id contains it', () => {
    expect(all.filter((m) => selects('renew-leases.token', m.id, all)).map((m) => m.id)).toEqual([
      'renew-leases.token',
    ]);
    expect(all.filter((m) => selects('renew', m.id, all)).map((m) => m.id)).toEqual([
      'renew-leases.token',
      'renew-leases.token-holder-both',
      'lease-renew.attempt',
    ]);
  });
});

describe('the fence mutations command line', () => {
  it('takes id filters, --check and repeated --exclude paths in any order', () => {
    expect(parseArgs(['outcome', '--exclude', 'a.test.ts', 'claim', '--check', '--exclude', 'b/**'])).toEqual(
      {
        check: true,
        excluded: ['a.test.ts', 'b/**'],
        filters: ['outcome', 'claim'],
        mysql: false,
        together: false,
      },
    );
    expect(parseArgs([])).toEqual({ check: false, excluded: [], filters: [], mysql: false, together: false });
    expect(parseArgs(['--mysql', '--killers', 'docs/fences.md', '--together', 'lease'])).toEqual({
      check: false,
      excluded: [],
      filters: ['lease'],
      mysql: true,
      killers: 'docs/fences.md',
      together: true,
    });
  });

  it('refuses an --exclude or --killers with nothing after it, and an unknown option', () => {
    expect(() => parseArgs(['outcome', '--exclude'])).toThrow(/--exclude: a test file or folder must follow/);
    expect(() => parseArgs(['--exclude', '--mysql'])).toThrow(/--exclude: a test file or folder must follow/);
    expect(() => parseArgs(['--killers'])).toThrow(/--killers: a table/);
    expect(() => parseArgs(['--mariadb'])).toThrow(/unknown option --mariadb/);
  });

  it('leaves the excluded files and folders out of the folders it runs, and runs the rest', () => {
    const under = (folder: string) => [
      `${folder}/a.test.ts`,
      `${folder}/big.test.ts`,
      `${folder}/sub/c.test.ts`,
    ];
    const tests = ['pkg/test', 'test/e2e/x.test.ts'];
    expect(testFilesExcluding(tests, [], under)).toEqual(tests);
    expect(testFilesExcluding(tests, ['pkg/test/big.test.ts', 'pkg/test/sub/'], under)).toEqual([
      'pkg/test/a.test.ts',
      'test/e2e/x.test.ts',
    ]);
    expect(testFilesExcluding(tests, ['test/e2e/x.test.ts'], under)).toEqual([
      'pkg/test/a.test.ts',
      'pkg/test/big.test.ts',
      'pkg/test/sub/c.test.ts',
    ]);
  });
});
