// Shared set-up of the scheduler benchmarks: the local stack and a fresh database. Tasks are
// loaded in bulk by @dsched/testkit/tasks (multi-row inserts, thousands of rows per statement).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type Pool } from '@dsched/mysql/pool';
import { portOpen } from '@dsched/testkit/ports';

export const SERVER_URL = process.env.DSCHED_BENCH_MYSQL_URL ?? 'mysql://dsched:dsched@127.0.0.1:3306';

/** Brings the local stack up when MariaDB does not answer (scripts/stack up is idempotent). */
export async function ensureStack(): Promise<void> {
  if (process.env.DSCHED_BENCH_MYSQL_URL || (await portOpen(3306))) return;
  execFileSync('bash', [fileURLToPath(new URL('../scripts/stack', import.meta.url)), 'up'], {
    stdio: 'inherit',
  });
}

/** A dropped-and-recreated, migrated database of the benchmark's own. */
export async function freshDatabase(name: string): Promise<Pool> {
  const admin = createPool(`${SERVER_URL}/mysql`, { connectionLimit: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const pool = createPool(`${SERVER_URL}/${name}`, { connectionLimit: 8 });
  await migrateMysql(pool);
  return pool;
}

export async function dropDatabase(pool: Pool, name: string): Promise<void> {
  await pool.query(`DROP DATABASE IF EXISTS \`${name}\``);
}

export { insertCronTasks as loadTasks, insertTestTenant } from '@dsched/testkit/tasks';

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
