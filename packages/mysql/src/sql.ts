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

/** `(?, ?, ?)` repeated: placeholders for a multi-row VALUES list. */
export function placeholders(rows: number, columns: number): string {
  const row = `(${new Array(columns).fill('?').join(', ')})`;
  return new Array(rows).fill(row).join(', ');
}

/**
 * A derived table of literal rows, `SELECT ? AS a, ? AS b UNION ALL SELECT ?, ? …`, for one UPDATE
 * that gives each row its own values (portable to MySQL 8 and MariaDB, unlike VALUES constructors).
 * The statement's .sql file marks where it goes with `:rows`.
 */
export function withRows(
  statement: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): { sql: string; params: unknown[] } {
  if (rows.length === 0) throw new Error('withRows: no rows');
  const first = `SELECT ${columns.map((c) => `? AS ${c}`).join(', ')}`;
  const rest = `SELECT ${columns.map(() => '?').join(', ')}`;
  const table = [first, ...new Array(rows.length - 1).fill(rest)].join(' UNION ALL ');
  if (!statement.includes(':rows')) throw new Error('withRows: statement has no :rows marker');
  return { sql: statement.replace(':rows', table), params: rows.flat() };
}
