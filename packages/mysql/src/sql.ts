import { readFileSync } from 'node:fs';

// Loads a statement from a .sql file next to the code that runs it. The header comment (lines
// starting with --) names the parameters; it is kept in the text sent to the server.
export function loadSql(relativeTo: string, file: string): string {
  return readFileSync(new URL(file, relativeTo), 'utf8').trim().replace(/;\s*$/, '');
}

/** Where a statement reads the database clock: `:now` in its .sql file. */
const NOW_MARKER = ':now';

/**
 * A statement that reads the database clock, marked `:now` in its .sql file (invariant 1), made a
 * function of an optional instant, as time is a parameter (River's `now`): without one, the
 * statement with NOW(3), the text computed once, so production sends exactly what it sent before
 * the marker and gains no statement, no parameter and no plan change; with one, that instant as a
 * DATETIME(3) literal instead, so a test steps the clock forward instead of sleeping (D50). Text,
 * not a placeholder: every parameter list stays as it is.
 */
export function clockedSql(statement: string): (at?: Date | null) => string {
  // A statement without the marker (a fence mutation may remove its only clock) is sent as it is.
  const live = statement.replaceAll(NOW_MARKER, 'NOW(3)');
  return (at) => (at ? statement.replaceAll(NOW_MARKER, instantLiteral(at)) : live);
}

/** An instant as a DATETIME(3) literal in UTC, the session time zone of every connection (pool.ts). */
export function instantLiteral(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new Error('instantLiteral: an invalid Date');
  return `CAST('${at.toISOString().slice(0, 23).replace('T', ' ')}' AS DATETIME(3))`;
}

/**
 * The statement with its `:values` marker replaced by `rows` rows of `columns` placeholders: one
 * multi-row INSERT, which vtgate routes row by row (docs/sharding.md).
 */
export function withValues(statement: string, rows: number, columns: number): string {
  if (rows === 0) throw new Error('withValues: no rows');
  const body = withoutComments(statement);
  if (!body.includes(':values')) throw new Error('withValues: statement has no :values marker');
  return body.replace(':values', placeholders(rows, columns));
}

/** `(?, ?, ?)` repeated: placeholders for a multi-row VALUES list. */
export function placeholders(rows: number, columns: number): string {
  const row = `(${new Array(columns).fill('?').join(', ')})`;
  return new Array(rows).fill(row).join(', ');
}

/**
 * A derived table of literal rows, `SELECT ? AS a, ? AS b UNION ALL SELECT ?, ? …`, for one
 * statement that gives each row its own values (portable to MySQL 8 and MariaDB, unlike VALUES
 * constructors, and planned by vtgate, unlike JSON_TABLE: docs/sharding.md). The statement's .sql
 * file marks where it goes with `:rows` (a mention in its header comment is not taken).
 */
export function withRows(
  statement: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): { sql: string; params: unknown[] } {
  if (rows.length === 0) throw new Error('withRows: no rows');
  const first = `SELECT ${columns.map((c) => `? AS \`${c}\``).join(', ')}`;
  const rest = `SELECT ${columns.map(() => '?').join(', ')}`;
  const table = [first, ...new Array(rows.length - 1).fill(rest)].join(' UNION ALL ');
  const body = withoutComments(statement);
  if (!body.includes(':rows')) throw new Error('withRows: statement has no :rows marker');
  return { sql: body.replace(':rows', table), params: rows.flat() };
}

/**
 * A value for each row by its key, as a binary search: the statement's `:search` marker becomes
 * `IF(key < ?, …, …)` nested about log2(n) deep over `pairs` sorted by key, so each row finds its
 * value in log2(n) comparisons. `CASE key WHEN ? THEN ? …` (withCases) tries the pairs in turn, n/2
 * on average, so a batch of n rows costs n²/2 comparisons (1,000 rows: half a million). A single-table
 * expression, which vtgate passes to the rows' shard as it is (docs/sharding.md). Keys compare as
 * the column does: binary ids (Buffer) bytewise, as BINARY(16) does. Only keys among `pairs` may
 * reach the expression (the statement's WHERE says so): any other key gets a neighbour's value.
 * `params` are the statement's other parameters, in order.
 */
export function withSearch(
  statement: string,
  key: string,
  pairs: readonly (readonly [Buffer, unknown])[],
  params: readonly unknown[],
): { sql: string; params: unknown[] } {
  if (pairs.length === 0) throw new Error('withSearch: no pairs');
  const parts = withoutComments(statement).split(':search');
  if (parts.length !== 2) throw new Error('withSearch: statement needs one :search marker');
  const sorted = [...pairs].sort((a, b) => Buffer.compare(a[0], b[0]));
  const searchParams: unknown[] = [];
  const tree = (lo: number, hi: number): string => {
    if (lo === hi) {
      searchParams.push(sorted[lo]![1]);
      return '?';
    }
    const mid = (lo + hi + 1) >> 1;
    searchParams.push(sorted[mid]![0]);
    return `IF(${key} < ?, ${tree(lo, mid - 1)}, ${tree(mid, hi)})`;
  };
  const search = tree(0, sorted.length - 1);
  const before = parts[0]!.split('?').length - 1;
  const after = parts[1]!.split('?').length - 1;
  if (before + after !== params.length)
    throw new Error(`withSearch: ${params.length} parameters for ${before + after} placeholders`);
  return {
    sql: parts[0] + search + parts[1],
    params: [...params.slice(0, before), ...searchParams, ...params.slice(before)],
  };
}

/**
 * `WHEN ? THEN ? …` for every `:cases` of a statement (as in `CASE id :cases END`), so one
 * single-table UPDATE gives each row its own value: vtgate plans that onto the rows' shards, an
 * UPDATE joined to a derived table of rows (withRows) or to JSON_TABLE it cannot
 * (docs/sharding.md). `params` are the statement's other parameters, in order; each `:cases` takes
 * every pair.
 */
export function withCases(
  statement: string,
  pairs: readonly (readonly [unknown, unknown])[],
  params: readonly unknown[],
): { sql: string; params: unknown[] } {
  return withCaseColumns(
    statement,
    pairs.map(([key, value]) => [key, value]),
    params,
    'same',
  );
}

/**
 * As withCases, with a value per `:cases` for each key: each row is `[key, value0, value1, …]` and
 * the i-th `:cases` of the statement takes `WHEN key THEN value_i` of every row (`same`: every
 * `:cases` takes `value0`). One single-table UPDATE sets several columns row by row.
 */
export function withCaseColumns(
  statement: string,
  rows: readonly (readonly unknown[])[],
  params: readonly unknown[],
  columns: 'same' | 'each' = 'each',
): { sql: string; params: unknown[] } {
  if (rows.length === 0) throw new Error('withCases: no pairs');
  const parts = withoutComments(statement).split(':cases');
  if (parts.length < 2) throw new Error('withCases: statement has no :cases marker');
  const lists = parts.slice(1).map((_, i) => {
    const column = columns === 'same' ? 1 : i + 1;
    return rows.map((row): [unknown, unknown] => {
      if (row.length <= column) throw new Error(`withCases: no value for :cases number ${i + 1}`);
      return [row[0], row[column]];
    });
  });
  return joinCases(parts, lists, params);
}

/**
 * As withCaseColumns, with a list of its own for each marker `:cases_NAME` (as in `CASE id
 * :cases_error ELSE NULL END`): a statement whose rows differ in several columns lists in each
 * CASE only the rows whose value is not the ELSE, so each row evaluates a short CASE per column
 * (outcome-apply.sql, D57). An empty list is `WHEN NULL THEN NULL` (it matches no row; a CASE
 * needs one WHEN).
 */
export function withNamedCases(
  statement: string,
  cases: Readonly<Record<string, readonly (readonly [unknown, unknown])[]>>,
  params: readonly unknown[],
): { sql: string; params: unknown[] } {
  const { parts, lists } = namedLists(statement, 'cases', cases, 'withNamedCases');
  return joinCases(parts, lists, params);
}

/**
 * A value for each row by its key, for a statement whose rows share a few values: each
 * `:groups_NAME` marker (as in `CASE :groups_n ELSE 0 END`) becomes `WHEN key IN (?) THEN ?` for
 * each distinct value of its list, the IN list holding the keys that take it. Both servers sort an
 * IN list of constants and search it, so a row costs about (distinct values × log2 n) comparisons,
 * where `CASE key WHEN ? …` (withCases) costs n/2 of them: the walk's counts of a step that told E
 * edges take at most √(2E) distinct values, as they sum to E (walk-count.sql). One single-table
 * expression, which vtgate sends to the rows' shard as it is (docs/sharding.md). An empty list is
 * `WHEN NULL THEN NULL` (the ELSE). `params` are the statement's other parameters, in order.
 */
export function withCaseGroups(
  statement: string,
  key: string,
  cases: Readonly<Record<string, readonly (readonly [unknown, unknown])[]>>,
  params: readonly unknown[],
): { sql: string; params: unknown[] } {
  const { parts, lists } = namedLists(statement, 'groups', cases, 'withCaseGroups');
  const grouped = lists.map((list) => {
    const byValue = new Map<unknown, unknown[]>();
    for (const [k, value] of list) {
      const keys = byValue.get(value);
      if (keys) keys.push(k);
      else byValue.set(value, [k]);
    }
    return [...byValue].map(([value, keys]): [unknown, unknown] => [keys, value]);
  });
  return joinCases(parts, grouped, params, `WHEN ${key} IN (?) THEN ?`);
}

/** A statement split at its markers `:PREFIX_NAME`, with the list of `cases` each marker names. */
function namedLists(
  statement: string,
  prefix: string,
  cases: Readonly<Record<string, readonly (readonly [unknown, unknown])[]>>,
  caller: string,
): { parts: string[]; lists: (readonly (readonly [unknown, unknown])[])[] } {
  const split = withoutComments(statement).split(new RegExp(`:${prefix}_([a-z_]+)`));
  const parts = split.filter((_, i) => i % 2 === 0);
  const names = split.filter((_, i) => i % 2 === 1);
  if (names.length === 0) throw new Error(`${caller}: statement has no :${prefix}_NAME marker`);
  const lists = names.map((name) => {
    const list = cases[name];
    if (!list) throw new Error(`${caller}: no list for :${prefix}_${name}`);
    return list;
  });
  return { parts, lists };
}

/** The parts of a statement joined by `WHEN ? THEN ? …` of each list, with the parameters in order. */
function joinCases(
  parts: readonly string[],
  lists: readonly (readonly (readonly [unknown, unknown])[])[],
  params: readonly unknown[],
  when = 'WHEN ? THEN ?',
): { sql: string; params: unknown[] } {
  const out: unknown[] = [];
  let next = 0;
  let sql = '';
  parts.forEach((part, i) => {
    const n = part.split('?').length - 1;
    out.push(...params.slice(next, next + n));
    next += n;
    sql += part;
    const list = lists[i];
    if (!list) return;
    sql += list.length === 0 ? 'WHEN NULL THEN NULL' : list.map(() => when).join(' ');
    out.push(...list.flat());
  });
  if (next !== params.length)
    throw new Error(`withCases: ${params.length} parameters for ${next} placeholders`);
  return { sql, params: out };
}

/** The statement without its header comment lines, so a marker named in the header is not taken. */
function withoutComments(statement: string): string {
  return statement
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
}
