import { readFileSync } from 'node:fs';

// Loads a statement from a .sql file next to the code that runs it. The header comment (lines
// starting with --) names the parameters; it is kept in the text sent to the server.
export function loadSql(relativeTo: string, file: string): string {
  return readFileSync(new URL(file, relativeTo), 'utf8').trim().replace(/;\s*$/, '');
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
