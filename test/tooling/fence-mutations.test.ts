import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';
import { describe, expect, it } from 'vitest';
import { loadMutations, parseArgs, testFilesExcluding } from '../../scripts/fence-mutations.ts';

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

describe('the fence mutations command line', () => {
  it('takes id filters, --check and repeated --exclude paths in any order', () => {
    expect(parseArgs(['outcome', '--exclude', 'a.test.ts', 'claim', '--check', '--exclude', 'b/**'])).toEqual(
      { check: true, excluded: ['a.test.ts', 'b/**'], filters: ['outcome', 'claim'] },
    );
    expect(parseArgs([])).toEqual({ check: false, excluded: [], filters: [] });
  });

  it('refuses an --exclude with nothing after it', () => {
    expect(() => parseArgs(['outcome', '--exclude'])).toThrow(/--exclude: a test file or folder must follow/);
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
