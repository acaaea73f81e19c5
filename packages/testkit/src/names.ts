import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// A test database (or keyspace) is named from the test file's whole path, so parallel test
// files and parallel checkouts sharing one server never touch each other's data: two files of one
// name in different packages (task-api's and job-api's auth-throttle.test.ts) once shared a
// keyspace and dropped it under each other. Everything a test creates starts with "t_", and the
// helpers refuse any other name.
export function testStoreName(fileUrl: string): string {
  const place = createHash('sha1').update(fileURLToPath(fileUrl)).digest('hex').slice(0, 6);
  const stem = basename(fileURLToPath(fileUrl))
    .replace(/\.test\.ts$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 30);
  return `t_${place}_${stem}`;
}

export function assertTestName(name: string): void {
  if (!/^t_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to touch "${name}": not a test store name`);
}
