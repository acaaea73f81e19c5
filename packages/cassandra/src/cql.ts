import { readFileSync } from 'node:fs';

// Loads a statement from a .cql file next to the code that runs it. The header comment (lines
// starting with --) names the parameters and what it returns; it is dropped from the text sent,
// so the prepared-statement cache keys on the statement alone.
export function loadCql(relativeTo: string, file: string): string {
  return readFileSync(new URL(file, relativeTo), 'utf8')
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .trim()
    .replace(/;\s*$/, '');
}
