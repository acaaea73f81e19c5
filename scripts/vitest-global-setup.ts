import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { portOpen } from '@dsched/testkit/ports';

/** Brings the local stack up when the tests find it down (scripts/stack up is idempotent). */
export default async function setup(): Promise<void> {
  if (process.env.DSCHED_TEST_MYSQL_URL || process.env.DSCHED_TEST_CASSANDRA) return;
  // pnpm test:vitess started its vttestservers and Cassandra itself (scripts/test-vitess.sh).
  if (process.env.DSCHED_MYSQL_TOPOLOGY === 'vitess') return;
  const mysqlPort = Number(process.env.DSCHED_MYSQL_PORT ?? 3306);
  const cassandraPort = Number(process.env.DSCHED_CASSANDRA_PORT ?? 9042);
  if ((await portOpen(mysqlPort)) && (await portOpen(cassandraPort))) return;
  execFileSync('bash', [fileURLToPath(new URL('./stack', import.meta.url)), 'up'], { stdio: 'inherit' });
}
