import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { portOpen } from '@dsched/testkit/ports';

/** Brings the local stack up when the tests find it down (scripts/stack up is idempotent). */
export default async function setup(): Promise<void> {
  if (process.env.DSCHED_TEST_MYSQL_URL || process.env.DSCHED_TEST_CASSANDRA) return;
  if ((await portOpen(3306)) && (await portOpen(9042))) return;
  execFileSync('bash', [fileURLToPath(new URL('./stack', import.meta.url)), 'up'], { stdio: 'inherit' });
}
