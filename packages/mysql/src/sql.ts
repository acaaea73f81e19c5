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
 * A derived table of literal rows, `SELECT ? AS a, ? AS b UNION ALL SELECT ?, ? ...`, to join an
 * UPDATE against per-row values in one statement (portable: MySQL and MariaDB disagree on VALUES).
 */
export function derivedRows(rows: number, columns: readonly string[]): string {
  const first = `SELECT ${columns.map((c) => `? AS \`${c}\``).join(', ')}`;
  const rest = `SELECT ${columns.map(() => '?').join(', ')}`;
  return [first, ...new Array(Math.max(0, rows - 1)).fill(rest)].join(' UNION ALL ');
}
