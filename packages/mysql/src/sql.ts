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
