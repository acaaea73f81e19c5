// Removes each fence of the job path, one at a time, runs the test files that guard it, and
// restores it: the table in docs/fences.md is this script's output. A fence no test misses is
// either redundant by design (an earlier locking read in the same transaction decides it; the
// table says which) or a missing test. The list is data: scripts/fence-mutations.yaml.
//
//   node scripts/fence-mutations.ts                 # every mutation (tens of minutes)
//   node scripts/fence-mutations.ts outcome-apply slots   # those whose id contains a word (an
//                                                   # exact id: that one alone)
//   node scripts/fence-mutations.ts --check         # only that the list is sound and every edit applies
//   node scripts/fence-mutations.ts outcome --exclude packages/mysql/test/claim-plan-1m.test.ts
//                                                   # leave a test file (or folder) out of every run
//                                                   # (repeatable): the million-row plans kill no fence
//   node scripts/fence-mutations.ts --mysql …       # the tests against MySQL 9.7 (the MySQL leg's
//                                                   # server, port 3307; scripts/stack up starts it)
//   node scripts/fence-mutations.ts --killers docs/fences.md …   # each mutation's tests: only the
//                      files that failed its row of that table (a row with none: its whole list)
//   node scripts/fence-mutations.ts --together run-set-paused run-reopen …   # all of them at once,
//                      their tests run once: for fences expected to survive (by design), a group
//                      where no test fails clears each; a group that fails is run one by one
//
// A mutation whose run breaks (no report, a timeout) prints an error row and the run goes on.
// It edits the working tree and puts every file back, also on Ctrl-C; run it in a checkout with
// no uncommitted change to the files it names (it refuses otherwise). It refuses a list that names
// a test file or folder, or a file to edit, that does not exist.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

const LIST = 'scripts/fence-mutations.yaml';

/** One edit of a file: `remove` (the text goes), `always` (a condition made `(cond OR 1)`, so its
 * placeholders still line up), or `find` → `replace`. The text must occur exactly once. */
interface EditSpec {
  file: string;
  remove?: string;
  always?: string;
  find?: string;
  replace?: string;
}

interface MutationSpec {
  id: string;
  /** The condition removed, as the table shows it. */
  condition: string;
  edits: EditSpec[];
  /** Test files or folders, or names of `groups`. */
  tests: string[];
  /** Why no test can miss it, when an earlier locking read decides it. */
  redundant?: string;
}

interface Edit {
  file: string;
  find: string;
  replace: string;
}

interface Mutation {
  id: string;
  condition: string;
  edits: Edit[];
  tests: string[];
  redundant?: string;
}

/** The list, its groups resolved and every path checked; throws naming everything wrong. */
export function loadMutations(text: string, exists: (path: string) => boolean = existsSync): Mutation[] {
  const doc = parse(text) as { groups?: Record<string, string[]>; mutations?: MutationSpec[] };
  const groups = doc.groups ?? {};
  const problems: string[] = [];
  const expand = (names: string[], where: string, seen: string[] = []): string[] =>
    names.flatMap((name) => {
      if (Object.hasOwn(groups, name)) {
        if (seen.includes(name)) {
          problems.push(`group ${name} includes itself`);
          return [];
        }
        return expand(groups[name]!, `group ${name}`, [...seen, name]);
      }
      if (!name.includes('/')) problems.push(`${where}: no group named ${name}`);
      else if (!exists(name)) problems.push(`${where}: no test file or folder ${name}`);
      return name.includes('/') ? [name] : [];
    });
  const ids = new Set<string>();
  const mutations = (doc.mutations ?? []).map((m): Mutation => {
    if (ids.has(m.id)) problems.push(`${m.id}: listed twice`);
    ids.add(m.id);
    const tests = [...new Set(expand(m.tests ?? [], m.id))];
    if (tests.length === 0) problems.push(`${m.id}: no tests`);
    const edits = (m.edits ?? []).map((e): Edit => {
      if (!exists(e.file)) problems.push(`${m.id}: no file ${e.file}`);
      if (e.remove !== undefined) return { file: e.file, find: e.remove, replace: '' };
      if (e.always !== undefined) return { file: e.file, find: e.always, replace: `(${e.always} OR 1)` };
      if (e.find !== undefined && e.replace !== undefined)
        return { file: e.file, find: e.find, replace: e.replace };
      problems.push(`${m.id}: an edit of ${e.file} has no remove, always or find and replace`);
      return { file: e.file, find: '', replace: '' };
    });
    if (edits.length === 0) problems.push(`${m.id}: no edits`);
    return {
      id: m.id,
      condition: m.condition,
      edits,
      tests,
      ...(m.redundant ? { redundant: m.redundant } : {}),
    };
  });
  if (problems.length > 0) throw new Error(`${LIST}:\n  ${[...new Set(problems)].join('\n  ')}`);
  return mutations;
}

/** The key a table row and a mutation share: the statement and the condition, as printed. */
export function rowKey(m: Pick<Mutation, 'edits' | 'condition'>): string {
  return `${m.edits[0]!.file.replace('packages/mysql/src/', '')} | ${m.condition}`;
}

/**
 * The test files that failed each row of an earlier run's table (docs/fences.md), by rowKey; a
 * row whose tests are `none …` maps to no file.
 */
export function killersFromTable(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split('\n')) {
    const m = line.match(/^\| `([^`]+)` \| (.*?) \| (.*) \|$/);
    if (!m) continue;
    const files = m[3]!.startsWith('none') ? [] : m[3]!.split('<br>').map((t) => t.split(' › ')[0]!.trim());
    const key = `${m[1]} | ${m[2]}`;
    rows.set(key, [...new Set([...(rows.get(key) ?? []), ...files])]);
  }
  return rows;
}

/** A filter selects the mutation it names exactly, or else every one whose id contains it. */
export function selects(filter: string, id: string, all: { id: string }[]): boolean {
  return all.some((m) => m.id === filter) ? id === filter : id.includes(filter);
}

/** The environment of the test runs: the MySQL leg's, as scripts/test-mysql.sh sets it. */
function testEnv(mysql: boolean): NodeJS.ProcessEnv {
  if (!mysql) return process.env;
  const env = { ...process.env };
  if (env.DSCHED_MYSQL_FLAVOR !== 'mysql') {
    env.DSCHED_MYSQL_FLAVOR = 'mysql';
    env.DSCHED_MYSQL_PORT = '3307';
  }
  env.DSCHED_MYSQL_PORT ??= '3307';
  delete env.DSCHED_TEST_MYSQL_URL;
  return env;
}

interface VitestJson {
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

/**
 * The test files to run: `tests` (files and folders) less the `excluded` files and folders. With
 * nothing excluded, `tests` as they are (vitest expands the folders); else each folder becomes its
 * test files, since vitest's own --exclude does not reach the workspace's projects.
 */
export function testFilesExcluding(
  tests: string[],
  excluded: string[],
  filesUnder: (folder: string) => string[] = testFilesUnder,
): string[] {
  if (excluded.length === 0) return tests;
  const out = (path: string) =>
    excluded.some((x) => path === x || path.startsWith(`${x.replace(/\/$/, '')}/`));
  return [
    ...new Set(
      tests.flatMap((t) => (t.endsWith('.test.ts') ? [t] : filesUnder(t))).filter((path) => !out(path)),
    ),
  ];
}

function testFilesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.test.ts'))
    .map((p) => join(folder, p))
    .sort();
}

function failingTests(files: string[], env: NodeJS.ProcessEnv): { failed: string[]; ran: number } {
  const dir = mkdtempSync(join(tmpdir(), 'fence-'));
  const out = join(dir, 'report.json');
  try {
    spawnSync('pnpm', ['exec', 'vitest', 'run', ...files, '--reporter=json', `--outputFile=${out}`], {
      stdio: 'ignore',
      timeout: 15 * 60_000,
      env,
    });
    const report = JSON.parse(readFileSync(out, 'utf8')) as VitestJson;
    const failed: string[] = [];
    let ran = 0;
    for (const file of report.testResults) {
      const name = file.name.replace(`${process.cwd()}/`, '');
      for (const t of file.assertionResults) {
        ran++;
        if (t.status === 'failed') failed.push(`${name} › ${t.fullName}`);
      }
      if (file.assertionResults.length === 0) failed.push(`${name} (did not run)`);
    }
    return { failed, ran };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  const { check, mysql, killers, together, excluded, filters } = parseArgs(process.argv.slice(2));
  const all = loadMutations(readFileSync(LIST, 'utf8'));
  const earlier = killers ? killersFromTable(readFileSync(killers, 'utf8')) : undefined;
  const env = testEnv(mysql);
  // The MySQL leg's server, started once (idempotent); its output kept off the table.
  if (mysql && !check) execFileSync('bash', ['scripts/stack', 'up'], { env, stdio: ['ignore', 2, 2] });
  const chosen = all.filter((m) => filters.length === 0 || filters.some((f) => selects(f, m.id, all)));
  const files = [...new Set(chosen.flatMap((m) => m.edits.map((e) => e.file)))];
  const dirty = execFileSync('git', ['status', '--porcelain', '--', ...files], { encoding: 'utf8' }).trim();
  if (dirty) throw new Error(`uncommitted changes in files this would edit:\n${dirty}`);
  const originals = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const restore = () => {
    for (const [f, text] of originals) writeFileSync(f, text);
  };
  process.on('SIGINT', () => {
    restore();
    process.exit(130);
  });
  console.log('| statement | condition removed | tests that fail without it |');
  console.log('| --- | --- | --- |');
  if (together && !check) {
    try {
      runTogether(chosen, excluded, env);
    } finally {
      restore();
    }
    return;
  }
  for (const m of chosen) {
    const file = m.edits[0]!.file.replace('packages/mysql/src/', '');
    try {
      for (const e of m.edits) {
        const text = readFileSync(e.file, 'utf8');
        if (text.split(e.find).length !== 2) throw new Error(`${m.id}: "${e.find}" is not once in ${e.file}`);
        writeFileSync(e.file, text.replace(e.find, e.replace));
      }
      if (check) {
        console.log(`| ${m.id} | applies |`);
        continue;
      }
      // With an earlier table: the files that failed this row there, when it names any.
      const killedBy = earlier?.get(rowKey(m)) ?? [];
      const tests = killedBy.length > 0 ? killedBy : m.tests;
      const { failed, ran } = failingTests(testFilesExcluding(tests, excluded), env);
      console.error(`${m.id}: ${failed.length} of ${ran} tests failed`);
      const verdict =
        failed.length > 0
          ? failed.join('<br>')
          : ran === 0
            ? '**no test ran**'
            : killedBy.length > 0
              ? `**none: survived the tests that failed it before (${killedBy.join(', ')})**`
              : m.redundant
                ? `none — by design: ${m.redundant}`
                : '**none: a missing test**';
      console.log(`| \`${file}\` | ${m.condition} | ${verdict} |`);
    } catch (err) {
      console.error(`${m.id}: ${(err as Error).message}`);
      console.log(`| \`${file}\` | ${m.condition} | **error: ${(err as Error).message.split('\n')[0]}** |`);
      process.exitCode = 1;
    } finally {
      restore();
    }
  }
}

/** Applies a mutation's edits, or none of them (throws naming the edit that does not apply). */
function apply(m: Mutation): void {
  const before = new Map(m.edits.map((e) => [e.file, readFileSync(e.file, 'utf8')]));
  try {
    for (const e of m.edits) {
      const text = readFileSync(e.file, 'utf8');
      if (text.split(e.find).length !== 2) throw new Error(`${m.id}: "${e.find}" is not once in ${e.file}`);
      writeFileSync(e.file, text.replace(e.find, e.replace));
    }
  } catch (err) {
    for (const [f, text] of before) writeFileSync(f, text);
    throw err;
  }
}

/**
 * Every mutation at once (those whose edits overlap another's are left out and say so), the union
 * of their tests run once. For fences expected to survive: no test failing clears each of them
 * (one could in principle hide another's failure; a group that fails is rerun one by one).
 */
function runTogether(chosen: Mutation[], excluded: string[], env: NodeJS.ProcessEnv): void {
  const applied: Mutation[] = [];
  const row = (m: Mutation, verdict: string) =>
    console.log(
      `| \`${m.edits[0]!.file.replace('packages/mysql/src/', '')}\` | ${m.condition} | ${verdict} |`,
    );
  for (const m of chosen) {
    try {
      apply(m);
      applied.push(m);
    } catch (err) {
      row(m, `**not run: ${(err as Error).message} (overlaps another of the group)**`);
    }
  }
  const tests = [...new Set(applied.flatMap((m) => m.tests))];
  const { failed, ran } = failingTests(testFilesExcluding(tests, excluded), env);
  console.error(`together (${applied.map((m) => m.id).join(' ')}): ${failed.length} of ${ran} tests failed`);
  for (const m of applied)
    row(
      m,
      failed.length > 0
        ? `**the group of ${applied.length} failed, to run alone: ${failed.join('<br>')}**`
        : ran === 0
          ? '**no test ran**'
          : `none (with the other ${applied.length - 1} of its group, ${ran} tests)${m.redundant ? ` — by design: ${m.redundant}` : ': **a missing test**'}`,
    );
}

export interface Options {
  check: boolean;
  excluded: string[];
  filters: string[];
  mysql: boolean;
  killers?: string;
  together: boolean;
}

/** `--check`, `--exclude PATH`, `--mysql`, `--killers TABLE`, `--together` and the id filters, in any order. */
export function parseArgs(args: string[]): Options {
  const parsed: Options = { check: false, excluded: [], filters: [], mysql: false, together: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--check') parsed.check = true;
    else if (a === '--mysql') parsed.mysql = true;
    else if (a === '--together') parsed.together = true;
    else if (a === '--exclude') {
      const path = args[++i];
      if (!path || path.startsWith('--')) throw new Error('--exclude: a test file or folder must follow');
      parsed.excluded.push(path);
    } else if (a === '--killers') {
      const table = args[++i];
      if (!table || table.startsWith('--'))
        throw new Error('--killers: a table (docs/fences.md) must follow');
      parsed.killers = table;
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else parsed.filters.push(a);
  }
  return parsed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
