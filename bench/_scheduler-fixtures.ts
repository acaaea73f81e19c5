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

import { insertCronTasks } from '@dsched/testkit/tasks';

export { createTenantWithKey } from '@dsched/testkit/fixtures';
export { insertCronTasks as loadTasks } from '@dsched/testkit/tasks';

/** Every one of these fires on a multiple of five minutes in every zone below. */
const EXPRESSIONS = ['*/5 * * * *', '0 9 * * 1-5', '30 2 * * *', '0 */2 * * *', '15 10 1 * *'];
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Lord_Howe'];
const PRIORITIES = ['critical', 'high', 'normal', 'low'] as const;

/** A task of the benches' mix: zone, expression and priority taken round-robin from `i`. */
export function mixedTask(i: number, nextFireAt: Date) {
  return {
    expression: EXPRESSIONS[i % EXPRESSIONS.length]!,
    timezone: ZONES[i % ZONES.length]!,
    nextFireAt,
    priority: PRIORITIES[i % PRIORITIES.length],
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Every expression of the mix fires on a multiple of five minutes (in every zone of it), so tasks
 * made due within the lookahead (plus a margin) before such a boundary would have a second
 * occurrence to materialise. Waits that window out, so a tick of n due tasks makes n jobs.
 */
export async function clearOfFireBoundary(pool: Pool, lookaheadS: number): Promise<void> {
  const windowMs = 300_000;
  const marginMs = (lookaheadS + 5) * 1000;
  const [[clock]] = (await pool.query('SELECT NOW(3) AS now')) as unknown as [[{ now: Date }]];
  const untilBoundary = windowMs - (clock.now.getTime() % windowMs);
  if (untilBoundary < marginMs) await new Promise((r) => setTimeout(r, untilBoundary + 1500));
}

/** Registers `count` tasks of the mix that are not due: next fire spread over the coming day. */
export async function loadIdleTasks(
  pool: Pool,
  tenantId: string,
  count: number,
  offset: number,
  partitions: number,
): Promise<void> {
  const base = Date.now() + 3_600_000;
  await insertCronTasks(
    pool,
    tenantId,
    count,
    (i) => mixedTask(i + offset, new Date(base + (((i + offset) * 7919) % 86_400) * 1000)),
    { partitions },
  );
}
